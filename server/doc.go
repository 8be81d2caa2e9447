// Package server is the query service over the release auditor (package
// audit): confidential tables in a SQL database, an HTTP/JSON API under
// /v1, an operator API behind a bearer token, and a web page at /.
//
// Storage (Store) is SQLite through the pure-Go driver modernc.org/sqlite
// (CGO_ENABLED=0 builds keep working), one database file in WAL mode with
// synchronous=FULL, its schema created and upgraded by the migrations
// listed in the code (schema_migrations records those applied). Tables:
// confidential tables (name, variables, cell counts, source file, its
// sha256, load time), policies (every version set, the current one per
// table), releases (the public history per table, in order), and
// decisions (the operator's audit log: every decision with its evidence
// and idempotency key). A decision and its release are written in one
// transaction: no release without its decision, no acknowledged decision
// lost (the answer is sent after the commit).
//
// Decisions on one table are serialized (a mutex per table held from
// reading the history to the commit), so two concurrent requests that
// together would breach the policy are never both released; different
// tables proceed in parallel, up to a limit of concurrent decisions. A
// request carries an idempotency key (at most 128 characters of valid
// UTF-8, no U+FFFD): a retry returns the stored decision and never
// releases twice (the margin compared in table order). Each
// table's history is kept in memory, so one process decides over a
// database: OpenExclusive holds an exclusive lock on the file (a second
// server gets a filelock.BusyError) and locks a serving file beside the
// name it opened the database by (ServingFile). Open (for loading tables
// beside a running server) works through that name only: SQLite keeps a
// write-ahead log per name, so through another one (a hard link) the
// server would never see the change, and Open returns an *InUseError.
// Without a server, Open holds a shared lock until Close, so that no
// server starts under it. Open refuses files that are not SQLite,
// other applications' databases and databases failing
// PRAGMA integrity_check (ErrDatabase).
//
// What anyone may see is separate from what the operator sees: anonymous
// endpoints answer PublicTable (no file name, hash or load time of the
// confidential file), public releases and public decisions; the operator's
// endpoints (bearer token) answer TableInfo and the decisions' evidence.
// A policy update (audit.PolicyUpdate) merges into the current policy: a
// field left out keeps its value. Simulate mode is refused (403) unless
// the table's policy allows simulation, which only the operator sets;
// every answer from a simulated table carries a notice that it is not
// data. A simulated answer depends only on the table's public releases,
// the request and its seed (from the table's name and the idempotency
// key); with nothing released yet a denied request is not simulated (see
// audit.Simulate). Log lines escape every value taken from a request; the cause of
// every 500 goes to Config.ErrorLog.
//
// Microdata tables (Store.LoadMicrodata, or PUT /v1/admin/tables/NAME
// with vars=V1,V2,...) store the non-empty cells of the records. Their
// levels are public (every page lists them): they are the data's labels
// in canonical order (datasets.CompareLabels), never in the records'
// order, or a levels file's (the multipart part "levels" of an upload);
// min_level_count merges the levels that fewer records hold into
// datasets.OtherLevel; max_cells and protect_collapsed set the auditor's
// audit.MicrodataOptions. Every query parameter of an upload is checked:
// an unknown or repeated one, a bad value, or a microdata one on a
// table is a 400 naming it, never ignored. TableInfo.MicrodataOptions
// shows the operator the options of the load.
//
// Who asks: an analyst sends a token the operator issued
// (Store.AddAnalyst; only its sha256 is stored), or a fronting proxy sets
// the header Config.TrustHeader, taken only from the peers of
// Config.TrustedProxies (loopback by default; from anyone else 403); the
// decision records that name as its requester. Anonymous requests are
// recorded as "anonymous" (with the name the body claims in brackets)
// and refused with Config.RequireIdentity. "anonymous" and "operator" are
// nobody's names: refused for analysts and in the header. A bearer token
// that is neither the operator's nor an active analyst's is 401, never
// anonymous. Each log line says which kind of identity the request came
// with: identity=token, header, anonymous or operator.
//
// Pages (embedded, no external asset, served under a strict content
// security policy): the analysts' page at / (request form with the
// variables' labels and levels (Labels), the policy in words
// (PolicyText), answers with totals and a CSV download, the public
// releases one row each) and the operator's page at /operator.html,
// rendered from the operator's endpoints (decisions with their reasons
// and evidence, activity per requester, analysts).
//
// Entry points: Open (the store), New (the HTTP handler over a store),
// Client (a Go client of the API, used by the tests, the demo and the
// load benchmark), LoadTest.
package server
