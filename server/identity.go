package server

import (
	"context"
	"crypto/subtle"
	"fmt"
	"net/http"
	"net/netip"
	"strings"
)

// Identity is who the server takes a caller for.
type Identity struct {
	// Requester is the name decisions record: the analyst's name, the
	// fronting proxy's user, "operator", or for an anonymous caller
	// "anonymous" (followed by the name the caller gave, in brackets:
	// "anonymous (alice)" is a claim nobody checked).
	Requester string `json:"requester"`
	// Kind is "analyst" (token issued by the operator), "proxy" (the
	// Config.TrustHeader header), "operator" or "anonymous".
	Kind string `json:"kind"`
	// AnonymousAllowed says whether anonymous callers may request margins.
	AnonymousAllowed bool `json:"anonymous_allowed"`
}

// Kinds of Identity.
const (
	KindAnalyst   = "analyst"
	KindProxy     = "proxy"
	KindOperator  = "operator"
	KindAnonymous = "anonymous"
)

// identify resolves the caller: a bearer token (the operator's, compared
// in constant time, or an analyst's), else the trusted proxy header when
// configured, else anonymous. A bearer token that is neither is an error
// (401): a mistyped or revoked token never turns into an anonymous
// request.
func (s *Server) identify(ctx context.Context, r *http.Request, claimed string) (Identity, error) {
	id := Identity{AnonymousAllowed: !s.cfg.RequireIdentity}
	if h := r.Header.Get("Authorization"); h != "" {
		tok, ok := strings.CutPrefix(h, "Bearer ")
		if !ok || tok == "" {
			return id, &requestError{http.StatusUnauthorized, `the Authorization header must be "Bearer TOKEN"`}
		}
		if s.cfg.AdminToken != "" && subtle.ConstantTimeCompare([]byte(tok), []byte(s.cfg.AdminToken)) == 1 {
			id.Requester, id.Kind = KindOperator, KindOperator
			return id, nil
		}
		name, err := s.store.analystByToken(ctx, tok)
		if err != nil {
			return id, err
		}
		if name == "" {
			return id, &requestError{http.StatusUnauthorized, "unknown or revoked analyst token"}
		}
		if reservedName(name) {
			// Issued before the built-in names were reserved.
			return id, &requestError{http.StatusUnauthorized, fmt.Sprintf("the analyst name %q is reserved: the operator must revoke it and issue a token under another name", name)}
		}
		id.Requester, id.Kind = name, KindAnalyst
		return id, nil
	}
	if s.cfg.TrustHeader != "" {
		if v := strings.TrimSpace(r.Header.Get(s.cfg.TrustHeader)); v != "" {
			if !s.trustedPeer(r) {
				return id, &requestError{http.StatusForbidden, fmt.Sprintf("header %s is taken only from the trusted proxies (--trusted-proxy); this request did not come from one", s.cfg.TrustHeader)}
			}
			if err := CheckAnalystName(v); err != nil {
				return id, &requestError{http.StatusBadRequest, fmt.Sprintf("header %s: %v", s.cfg.TrustHeader, err)}
			}
			id.Requester, id.Kind = v, KindProxy
			return id, nil
		}
	}
	id.Requester, id.Kind = KindAnonymous, KindAnonymous
	if claimed != "" {
		id.Requester = "anonymous (" + claimed + ")"
	}
	return id, nil
}

// trustedPeer reports whether the request comes from a trusted proxy
// (Config.TrustedProxies, by default loopback).
func (s *Server) trustedPeer(r *http.Request) bool {
	ap, err := netip.ParseAddrPort(r.RemoteAddr)
	if err != nil {
		return false
	}
	addr := ap.Addr().Unmap().WithZone("")
	if s.cfg.TrustedProxies == nil {
		return addr.IsLoopback()
	}
	for _, p := range s.cfg.TrustedProxies {
		if p.Contains(addr) {
			return true
		}
	}
	return false
}

// logIdentity adds the requester and the kind of identity it was taken
// from (token, header, anonymous, operator) to the request's log line.
func logIdentity(r *http.Request, id Identity) {
	setLog(r, "requester", id.Requester)
	kind := id.Kind
	switch kind {
	case KindAnalyst:
		kind = "token"
	case KindProxy:
		kind = "header"
	}
	setLog(r, "identity", kind)
}

func (s *Server) whoami(w http.ResponseWriter, r *http.Request) {
	id, err := s.identify(r.Context(), r, "")
	if err != nil {
		s.fail(w, r, err)
		return
	}
	logIdentity(r, id)
	writeJSON(w, http.StatusOK, id)
}

// logFields are the fields a handler adds to its request's log line.
type logFields struct {
	kv []string
}

type logKey struct{}

// setLog adds key=value to the request's log line (the value escaped
// when written).
func setLog(r *http.Request, key, value string) {
	if f, ok := r.Context().Value(logKey{}).(*logFields); ok && value != "" {
		f.kv = append(f.kv, key, value)
	}
}

// ParseTrustedProxies reads Config.TrustedProxies from addresses
// ("192.0.2.7", "::1") and CIDR ranges ("10.0.0.0/8"); none gives nil
// (loopback only).
func ParseTrustedProxies(specs []string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, spec := range specs {
		for _, v := range strings.Split(spec, ",") {
			v = strings.TrimSpace(v)
			if p, err := netip.ParsePrefix(v); err == nil {
				out = append(out, p.Masked())
				continue
			}
			a, err := netip.ParseAddr(v)
			if err != nil {
				return nil, fmt.Errorf("%q: want an IP address or a CIDR range such as 10.0.0.0/8", v)
			}
			a = a.Unmap().WithZone("")
			out = append(out, netip.PrefixFrom(a, a.BitLen()))
		}
	}
	return out, nil
}
