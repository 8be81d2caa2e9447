package server

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	_ "modernc.org/sqlite" // the "sqlite" database/sql driver, pure Go

	"github.com/sdcopt/sdcopt/audit"
	"github.com/sdcopt/sdcopt/datasets"
	"github.com/sdcopt/sdcopt/internal/filelock"
	"github.com/sdcopt/sdcopt/model"
)

// migrations are the schema versions, applied in order; the index + 1 is
// the version recorded in schema_migrations. Never edit an applied one:
// append.
var migrations = []string{
	// 1: tables, policies, releases, decisions.
	`CREATE TABLE conf_tables (
		id INTEGER PRIMARY KEY,
		name TEXT NOT NULL UNIQUE,
		vars_json TEXT NOT NULL,
		counts_json TEXT NOT NULL,
		source TEXT NOT NULL,
		sha256 TEXT NOT NULL,
		loaded_at TEXT NOT NULL
	);
	CREATE TABLE policies (
		id INTEGER PRIMARY KEY,
		table_id INTEGER NOT NULL REFERENCES conf_tables(id),
		policy_json TEXT NOT NULL,
		version TEXT NOT NULL,
		set_at TEXT NOT NULL
	);
	CREATE TABLE decisions (
		id INTEGER PRIMARY KEY,
		table_id INTEGER NOT NULL REFERENCES conf_tables(id),
		idem_key TEXT NOT NULL,
		request_json TEXT NOT NULL,
		requester TEXT NOT NULL,
		time TEXT NOT NULL,
		margin TEXT NOT NULL,
		mode TEXT NOT NULL,
		outcome TEXT NOT NULL,
		policy_version TEXT NOT NULL,
		public_json TEXT NOT NULL,
		operator_json TEXT NOT NULL,
		UNIQUE (table_id, idem_key)
	);
	CREATE TABLE releases (
		id INTEGER PRIMARY KEY,
		table_id INTEGER NOT NULL REFERENCES conf_tables(id),
		seq INTEGER NOT NULL,
		decision_id INTEGER NOT NULL UNIQUE REFERENCES decisions(id),
		margin TEXT NOT NULL,
		counts_json TEXT NOT NULL,
		simulated INTEGER NOT NULL,
		request_id TEXT NOT NULL,
		requester TEXT NOT NULL,
		time TEXT NOT NULL,
		policy_version TEXT NOT NULL,
		UNIQUE (table_id, seq)
	);`,
	// 2: analysts (tokens stored as sha256), labels of the variables.
	`CREATE TABLE analysts (
		id INTEGER PRIMARY KEY,
		name TEXT NOT NULL UNIQUE,
		token_sha256 TEXT NOT NULL UNIQUE,
		created_at TEXT NOT NULL,
		revoked_at TEXT
	);
	ALTER TABLE conf_tables ADD COLUMN labels_json TEXT NOT NULL DEFAULT '{}';`,
	// 3: microdata tables: the non-empty cells of the records (microJSON),
	// '' for a full table (counts_json).
	`ALTER TABLE conf_tables ADD COLUMN micro_json TEXT NOT NULL DEFAULT '';`,
}

// microJSON is how a microdata table is stored: its non-empty full cells
// (the level index of every variable, then the count) and the options of
// its auditor. The full table is never built.
type microJSON struct {
	Cells            [][]int64 `json:"cells"`
	Records          int       `json:"records"`
	MaxCells         int       `json:"max_cells,omitempty"`
	ProtectCollapsed bool      `json:"protect_collapsed,omitempty"`
	// How the levels were formed (datasets.Microdata): shown to the
	// operator only.
	MinLevelCount int      `json:"min_level_count,omitempty"`
	LevelsGiven   []string `json:"levels_given,omitempty"`
}

// confData is what a stored table decides on: a full table, or microdata
// (md, with the options of its auditor; table then holds the variables
// only).
type confData struct {
	table *model.Table
	md    *datasets.Microdata
	mopt  audit.MicrodataOptions
}

// Store is the service's database.
type Store struct {
	db   *sql.DB
	path string
	lock *filelock.Lock // the lock on the database file (OpenExclusive's exclusive one, Open's shared one), released after the database closes
	// serving is a server's lock on marker, its serving file.
	serving *filelock.Lock
	marker  string
}

// ErrNotFound reports an unknown table.
var ErrNotFound = errors.New("server: no such table")

// ErrExists reports a table name already in use.
var ErrExists = errors.New("server: a table of that name exists")

// ErrName reports a table name that is not allowed.
var ErrName = errors.New("server: bad table name")

// ErrDatabase reports a database file the service cannot use: not SQLite,
// another application's database, or corrupted.
var ErrDatabase = errors.New("server: unusable database")

// applicationID marks sdcopt's databases in the SQLite header
// (PRAGMA application_id): "sdcp".
const applicationID = 0x73646370

// InUseError reports a database that a server (OpenExclusive) holds under
// another name: a second hard link to its file. SQLite keeps its
// write-ahead log beside the name it was opened by, so what was written
// through this name would never reach the server.
type InUseError struct {
	Path string
	// PID is the server's process id (0 when the system does not tell).
	PID int
}

func (e *InUseError) Error() string {
	who := "another process"
	if e.PID > 0 {
		who = fmt.Sprintf("process %d", e.PID)
	}
	return fmt.Sprintf("%s is in use by %s (sdcopt serve) under another name (a second hard link to the file): "+
		"SQLite keeps a write-ahead log per name, so the server would never see this change; use the path the server was started with", e.Path, who)
}

// servingSuffix names the file a server locks beside the name it opened
// its database by (symbolic links resolved, as SQLite resolves them for
// its write-ahead log): whoever opens the database by that name shares
// the server's log.
const servingSuffix = "-serving"

// servingMarker is the name of path's serving file.
func servingMarker(path string) (string, error) {
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return "", err
	}
	if real, err = filepath.Abs(real); err != nil {
		return "", err
	}
	return real + servingSuffix, nil
}

// ServingFile is the file a running server locks beside its database
// (path + "-serving", symbolic links resolved); it is removed when the
// server stops.
func ServingFile(path string) string {
	if m, err := servingMarker(path); err == nil {
		return m
	}
	return path + servingSuffix
}

// Open opens (creating if needed, mode 0600: it holds confidential
// tables) the database file, checks it (ErrDatabase: not an SQLite file,
// another application's database — one with tables and no sdcopt
// schema —, or one that fails PRAGMA integrity_check) and applies the
// migrations not yet applied. Several processes may open one database
// (sdcopt serve load beside a running server) by the same name; the
// server itself uses OpenExclusive. While a server runs, opening its
// database through another name (a hard link) is an *InUseError. While
// no server runs, the Store holds a shared lock on the file until Close,
// so that no server starts under it.
func Open(path string) (*Store, error) {
	if path == "" {
		return nil, errors.New("server: no database file given")
	}
	f, err := os.OpenFile(path, os.O_RDONLY|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("server: open %s: %w", path, err)
	}
	f.Close()
	lock, err := filelock.TryShared(path)
	var busy *filelock.BusyError
	switch {
	case errors.As(err, &busy):
		// A server holds the file: only its name shares its log.
		marker, err := servingMarker(path)
		if err != nil {
			return nil, fmt.Errorf("server: open %s: %w", path, err)
		}
		held, err := filelock.Held(marker)
		if err != nil {
			return nil, fmt.Errorf("server: open %s: %w", path, err)
		}
		if !held {
			return nil, &InUseError{Path: path, PID: busy.PID}
		}
	case err != nil:
		return nil, fmt.Errorf("server: open %s: %w", path, err)
	}
	s, err := open(path)
	if err != nil {
		lock.Release()
		return nil, err
	}
	s.lock = lock
	return s, nil
}

// open opens and checks the database, under the caller's locks.
func open(path string) (*Store, error) {
	// Checked read-only first: a file that is not ours is left as it was
	// (opening it with the pragmas below would turn it to WAL mode).
	ro, err := sql.Open("sqlite", "file:"+path+"?mode=ro&_pragma=busy_timeout(10000)")
	if err != nil {
		return nil, fmt.Errorf("server: open %s: %w", path, err)
	}
	err = check(ro)
	ro.Close()
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrDatabase, path, err)
	}
	dsn := "file:" + path + "?_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)&_pragma=synchronous(FULL)&_pragma=foreign_keys(ON)&_txlock=immediate"
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("server: open %s: %w", path, err)
	}
	// One writer at a time is SQLite's model; readers share the pool.
	db.SetMaxOpenConns(8)
	s := &Store{db: db, path: path}
	if err := s.migrate(); err != nil {
		db.Close()
		return nil, fmt.Errorf("server: %s: %w", path, err)
	}
	return s, nil
}

// OpenExclusive is Open under an exclusive lock on the database file
// (flock, released by Close or when the process ends): the one process
// that decides requests over this database. Its decision state (each
// table's history) lives in memory, so a second server on the same file
// would decide against a stale history; it gets a *filelock.BusyError
// naming the holder's process id where the system tells it.
func OpenExclusive(path string) (*Store, error) {
	if path == "" {
		return nil, errors.New("server: no database file given")
	}
	lock, err := filelock.Acquire(path, 0o600, 0)
	if err != nil {
		return nil, err
	}
	// The serving file marks the name this server opened the database
	// by (Open refuses any other name while it runs). A process checking
	// it holds it for an instant: wait a little.
	marker, err := servingMarker(path)
	if err != nil {
		lock.Release()
		return nil, fmt.Errorf("server: open %s: %w", path, err)
	}
	serving, err := filelock.Acquire(marker, 0o600, 2*time.Second)
	if err != nil {
		lock.Release()
		return nil, fmt.Errorf("server: %w", err)
	}
	s, err := open(path)
	if err != nil {
		serving.Release()
		os.Remove(marker)
		lock.Release()
		return nil, err
	}
	s.lock, s.serving, s.marker = lock, serving, marker
	return s, nil
}

// Close closes the database, then releases the locks (in this order:
// closing the lock's descriptor first would drop SQLite's own POSIX locks
// on the file) and removes a server's serving file.
func (s *Store) Close() error {
	err := s.db.Close()
	if s.serving != nil {
		os.Remove(s.marker)
		s.serving.Release()
		s.serving = nil
	}
	if s.lock != nil {
		s.lock.Release()
		s.lock = nil
	}
	return err
}

// check refuses a file that is not SQLite, a database of another
// application and a corrupted one.
func check(db *sql.DB) error {
	ctx := context.Background()
	var app int64
	if err := db.QueryRowContext(ctx, `PRAGMA application_id`).Scan(&app); err != nil {
		return fmt.Errorf("not a readable SQLite database: %v", err)
	}
	if app != 0 && app != applicationID {
		return fmt.Errorf("another application's SQLite database (application_id %#x), not sdcopt's", app)
	}
	rows, err := db.QueryContext(ctx, `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name`)
	if err != nil {
		return fmt.Errorf("not a readable SQLite database: %v", err)
	}
	var names []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			rows.Close()
			return err
		}
		names = append(names, n)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("not a readable SQLite database: %v", err)
	}
	if len(names) > 0 && app == 0 && !slices.Contains(names, "schema_migrations") {
		const show = 5
		list := strings.Join(names[:min(len(names), show)], ", ")
		if len(names) > show {
			list += fmt.Sprintf(", ... (%d tables)", len(names))
		}
		return fmt.Errorf("not an sdcopt database: it holds the tables %s and no sdcopt schema; refusing to add to it", list)
	}
	rows, err = db.QueryContext(ctx, `PRAGMA integrity_check`)
	if err != nil {
		return fmt.Errorf("corrupted: integrity check failed: %v", err)
	}
	var problems []string
	for rows.Next() {
		var msg string
		if err := rows.Scan(&msg); err != nil {
			rows.Close()
			return fmt.Errorf("corrupted: integrity check failed: %v", err)
		}
		if msg != "ok" {
			problems = append(problems, msg)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("corrupted: integrity check failed: %v", err)
	}
	if len(problems) > 0 {
		return fmt.Errorf("corrupted: integrity check: %s", strings.Join(problems[:min(len(problems), 3)], "; "))
	}
	return nil
}

// SchemaVersion is the number of migrations this build knows.
func SchemaVersion() int { return len(migrations) }

func (s *Store) migrate() error {
	ctx := context.Background()
	if _, err := s.db.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)`); err != nil {
		return err
	}
	var have int
	if err := s.db.QueryRowContext(ctx, `SELECT COALESCE(MAX(version), 0) FROM schema_migrations`).Scan(&have); err != nil {
		return err
	}
	if have > len(migrations) {
		return fmt.Errorf("database schema version %d is newer than this build's %d", have, len(migrations))
	}
	var app int64
	if err := s.db.QueryRowContext(ctx, `PRAGMA application_id`).Scan(&app); err != nil {
		return err
	}
	if app != applicationID {
		if _, err := s.db.ExecContext(ctx, fmt.Sprintf(`PRAGMA application_id = %d`, applicationID)); err != nil {
			return err
		}
	}
	for v := have + 1; v <= len(migrations); v++ {
		tx, err := s.db.BeginTx(ctx, nil)
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, migrations[v-1]); err != nil {
			tx.Rollback()
			return fmt.Errorf("migration %d: %w", v, err)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)`, v, now()); err != nil {
			tx.Rollback()
			return err
		}
		if err := tx.Commit(); err != nil {
			return err
		}
	}
	return nil
}

func now() string { return time.Now().UTC().Format(time.RFC3339Nano) }

// TableInfo describes a stored table as the operator sees it: with the
// source file's name, its sha256 and the load time, which PublicTable
// leaves out (anyone holding a candidate table could confirm it by its
// hash).
type TableInfo struct {
	ID        int64            `json:"-"`
	Name      string           `json:"name"`
	Vars      []model.Variable `json:"-"`
	Variables []VariableInfo   `json:"variables"`
	Cells     int              `json:"cells"`
	// Microdata: the table is the cross-classification of microdata
	// (never built; Cells is its size, saturating at the largest int);
	// Records their number.
	Microdata         bool         `json:"microdata,omitempty"`
	Records           int          `json:"records,omitempty"`
	Source            string       `json:"source,omitempty"`
	SHA256            string       `json:"sha256,omitempty"`
	LoadedAt          string       `json:"loaded_at,omitempty"`
	Policy            audit.Policy `json:"policy"`
	PolicyVersion     string       `json:"policy_version"`
	PolicyText        string       `json:"policy_text"`
	Releases          int          `json:"releases"`
	SimulatedReleases int          `json:"simulated_releases"`
	Notice            string       `json:"notice,omitempty"`

	// MicrodataOptions are the options a microdata table was loaded
	// with (nil for a table).
	MicrodataOptions *MicrodataOptions `json:"microdata_options,omitempty"`
}

// MicrodataOptions are the options of a microdata table as the operator
// sees them: those of its auditor in force (audit.MicrodataOptions; the
// default cell limit when none was given) and how its levels were formed
// (datasets.LevelOptions).
type MicrodataOptions struct {
	MaxCells         int  `json:"max_cells"`
	ProtectCollapsed bool `json:"protect_collapsed"`
	// MinLevelCount: the levels taken from the data that fewer records
	// hold were merged into datasets.OtherLevel (0: none was merged).
	MinLevelCount int `json:"min_level_count"`
	// LevelsGiven names the variables whose levels a levels file gave;
	// the others' are the data's labels in canonical order
	// (datasets.CompareLabels).
	LevelsGiven []string `json:"levels_given"`
}

// PublicTable describes a table as anyone may see it: its layout, its
// policy and how many releases (and simulated ones) it has; no file name,
// hash or time of the confidential file.
type PublicTable struct {
	Name      string         `json:"name"`
	Variables []VariableInfo `json:"variables"`
	Cells     int            `json:"cells"`
	// Microdata: the table is the cross-classification of microdata.
	Microdata     bool         `json:"microdata,omitempty"`
	Policy        audit.Policy `json:"policy"`
	PolicyVersion string       `json:"policy_version"`
	// PolicyText is the policy in words (PolicyText).
	PolicyText        string `json:"policy_text"`
	Releases          int    `json:"releases"`
	SimulatedReleases int    `json:"simulated_releases"`
	// Notice says in words that the table's public releases include
	// simulated ones (empty otherwise).
	Notice string `json:"notice,omitempty"`
}

// Public is what anyone may see of the table.
func (t *TableInfo) Public() *PublicTable {
	return &PublicTable{Name: t.Name, Variables: t.Variables, Cells: t.Cells, Microdata: t.Microdata, Policy: t.Policy, PolicyVersion: t.PolicyVersion, PolicyText: t.PolicyText,
		Releases: t.Releases, SimulatedReleases: t.SimulatedReleases, Notice: t.Notice}
}

// SimulatedAnswerNotice accompanies every simulated answer.
const SimulatedAnswerNotice = "SIMULATED, NOT DATA: these counts are a margin of a table simulated from the public releases, " +
	"not of the confidential table; they say nothing about the respondents"

// simulatedTableNotice says that a table's public view holds simulated
// releases and what follows.
func simulatedTableNotice(simulated, releases int) string {
	if simulated == 0 {
		return ""
	}
	return fmt.Sprintf("%d of the %d public releases of this table are SIMULATED, NOT DATA (margins of a table simulated from the public releases). "+
		"They stay public: every later answer they imply is simulated too, and a true margin that contradicts them is denied", simulated, releases)
}

// VariableInfo is a variable and its levels, with the labels the
// operator gave them (Labels; empty when none).
type VariableInfo struct {
	Name   string   `json:"name"`
	Levels []string `json:"levels"`
	// Label says what the variable is ("Smoker"); LevelLabels what each
	// level means, in the order of Levels ("" where none was given).
	Label       string   `json:"label,omitempty"`
	LevelLabels []string `json:"level_labels,omitempty"`
}

// LoadTable stores a confidential table under name with its policy; source
// names where it came from and data is the file's content (its sha256 is
// recorded). A name in use is ErrExists: a table with a release history
// cannot be replaced.
func (s *Store) LoadTable(ctx context.Context, name string, t *model.Table, p audit.Policy, source string, data []byte) error {
	return s.LoadLabeledTable(ctx, name, t, p, nil, source, data)
}

// LoadLabeledTable is LoadTable with the labels of the variables and
// their levels (nil: none), checked against t (Labels.Check) and stored
// in the same transaction.
func (s *Store) LoadLabeledTable(ctx context.Context, name string, t *model.Table, p audit.Policy, labels Labels, source string, data []byte) error {
	labels, err := checkLoad(name, t.Vars, labels, p)
	if err != nil {
		return err
	}
	counts, _ := json.Marshal(t.Counts)
	return s.insertTable(ctx, name, t.Vars, string(counts), nil, labels, p, source, data)
}

// checkLoad checks what every loaded table needs: its name, its labels
// against its variables (nil labels become empty ones) and its policy.
func checkLoad(name string, vars []model.Variable, labels Labels, p audit.Policy) (Labels, error) {
	if err := CheckName(name); err != nil {
		return nil, err
	}
	if err := labels.Check(vars); err != nil {
		return nil, err
	}
	if labels == nil {
		labels = Labels{}
	}
	return labels, p.Validate()
}

// insertTable stores a table (counts, or microdata when micro is not
// nil) with its labels and first policy in one transaction.
func (s *Store) insertTable(ctx context.Context, name string, vs []model.Variable, counts string, micro any, labels Labels, p audit.Policy, source string, data []byte) error {
	lj, _ := json.Marshal(labels)
	vars, _ := json.Marshal(vs)
	mj := ""
	if micro != nil {
		b, _ := json.Marshal(micro)
		mj = string(b)
	}
	sum := sha256.Sum256(data)
	pj, _ := json.Marshal(p)
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, `INSERT INTO conf_tables (name, vars_json, labels_json, counts_json, micro_json, source, sha256, loaded_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
		name, string(vars), string(lj), counts, mj, source, hex.EncodeToString(sum[:]), now())
	if err != nil {
		if strings.Contains(err.Error(), "UNIQUE") {
			return fmt.Errorf("%w: %q", ErrExists, name)
		}
		return err
	}
	id, _ := res.LastInsertId()
	if _, err := tx.ExecContext(ctx, `INSERT INTO policies (table_id, policy_json, version, set_at) VALUES (?, ?, ?, ?)`,
		id, string(pj), p.Version(), now()); err != nil {
		return err
	}
	return tx.Commit()
}

// LoadMicrodata stores confidential microdata under name with its policy
// and the options of its auditor (audit.NewMicrodata): only the non-empty
// cells of the cross-classification are stored, the full table is never
// built. source and data are as for LoadTable; labels as for
// LoadLabeledTable.
func (s *Store) LoadMicrodata(ctx context.Context, name string, md *datasets.Microdata, mopt audit.MicrodataOptions, p audit.Policy, labels Labels, source string, data []byte) error {
	labels, err := checkLoad(name, md.Vars, labels, p)
	if err != nil {
		return err
	}
	if mopt.MaxCells < 0 {
		return fmt.Errorf("%w: max cells %d is negative", audit.ErrRequest, mopt.MaxCells)
	}
	levels, counts := md.Cells()
	mj := microJSON{Records: md.N, MaxCells: mopt.MaxCells, ProtectCollapsed: mopt.ProtectCollapsed, Cells: make([][]int64, len(levels)),
		MinLevelCount: md.MinLevelCount, LevelsGiven: md.LevelsGiven}
	for i, lv := range levels {
		row := make([]int64, len(lv)+1)
		for j, x := range lv {
			row[j] = int64(x)
		}
		row[len(lv)] = counts[i]
		mj.Cells[i] = row
	}
	return s.insertTable(ctx, name, md.Vars, "[]", mj, labels, p, source, data)
}

// SetPolicy records a new policy for a table; later decisions use it.
func (s *Store) SetPolicy(ctx context.Context, name string, p audit.Policy) error {
	if err := p.Validate(); err != nil {
		return err
	}
	info, err := s.Table(ctx, name)
	if err != nil {
		return err
	}
	pj, _ := json.Marshal(p)
	_, err = s.db.ExecContext(ctx, `INSERT INTO policies (table_id, policy_json, version, set_at) VALUES (?, ?, ?, ?)`,
		info.ID, string(pj), p.Version(), now())
	return err
}

// UpdatePolicy changes the fields u sets in a table's current policy and
// records the result (one transaction: two updates never lose each
// other's fields). Fields left out keep their value, so an update can
// never weaken the policy by omission. An update that changes nothing
// records nothing.
func (s *Store) UpdatePolicy(ctx context.Context, name string, u audit.PolicyUpdate) (audit.Policy, error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return audit.Policy{}, err
	}
	defer tx.Rollback()
	var id int64
	var pj string
	err = tx.QueryRowContext(ctx, `SELECT t.id, (SELECT policy_json FROM policies p WHERE p.table_id = t.id ORDER BY p.id DESC LIMIT 1)
		FROM conf_tables t WHERE t.name = ?`, name).Scan(&id, &pj)
	if errors.Is(err, sql.ErrNoRows) {
		return audit.Policy{}, fmt.Errorf("%w: %q", ErrNotFound, name)
	}
	if err != nil {
		return audit.Policy{}, err
	}
	var cur audit.Policy
	if err := json.Unmarshal([]byte(pj), &cur); err != nil {
		return audit.Policy{}, err
	}
	p, err := u.Apply(cur)
	if err != nil {
		return audit.Policy{}, err
	}
	if p == cur {
		return p, nil
	}
	npj, _ := json.Marshal(p)
	if _, err := tx.ExecContext(ctx, `INSERT INTO policies (table_id, policy_json, version, set_at) VALUES (?, ?, ?, ?)`,
		id, string(npj), p.Version(), now()); err != nil {
		return audit.Policy{}, err
	}
	return p, tx.Commit()
}

// Tables lists the stored tables by name.
func (s *Store) Tables(ctx context.Context) ([]*TableInfo, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT name FROM conf_tables ORDER BY name`)
	if err != nil {
		return nil, err
	}
	var names []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			rows.Close()
			return nil, err
		}
		names = append(names, n)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	out := []*TableInfo{}
	for _, n := range names {
		t, err := s.Table(ctx, n)
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, nil
}

// Table describes one table (ErrNotFound when unknown).
func (s *Store) Table(ctx context.Context, name string) (*TableInfo, error) {
	var info TableInfo
	var vars, pj, lj, micro string
	err := s.db.QueryRowContext(ctx, `SELECT t.id, t.name, t.vars_json, t.labels_json, t.micro_json, t.source, t.sha256, t.loaded_at,
			(SELECT policy_json FROM policies p WHERE p.table_id = t.id ORDER BY p.id DESC LIMIT 1),
			(SELECT COUNT(*) FROM releases r WHERE r.table_id = t.id),
			(SELECT COUNT(*) FROM releases r WHERE r.table_id = t.id AND r.simulated != 0)
		FROM conf_tables t WHERE t.name = ?`, name).Scan(&info.ID, &info.Name, &vars, &lj, &micro, &info.Source, &info.SHA256, &info.LoadedAt, &pj,
		&info.Releases, &info.SimulatedReleases)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("%w: %q", ErrNotFound, name)
	}
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal([]byte(vars), &info.Vars); err != nil {
		return nil, err
	}
	if err := json.Unmarshal([]byte(pj), &info.Policy); err != nil {
		return nil, err
	}
	info.PolicyVersion = info.Policy.Version()
	info.PolicyText = PolicyText(info.Policy)
	info.Notice = simulatedTableNotice(info.SimulatedReleases, info.Releases)
	var labels Labels
	if err := json.Unmarshal([]byte(lj), &labels); err != nil {
		return nil, err
	}
	info.Cells = 1
	for _, v := range info.Vars {
		vi := VariableInfo{Name: v.Name, Levels: v.Levels}
		if l, ok := labels[v.Name]; ok {
			vi.Label = l.Label
			if len(l.Levels) > 0 {
				vi.LevelLabels = make([]string, len(v.Levels))
				for i, lev := range v.Levels {
					vi.LevelLabels[i] = l.Levels[lev]
				}
			}
		}
		info.Variables = append(info.Variables, vi)
		if l := len(v.Levels); l > 0 && info.Cells > math.MaxInt/l {
			info.Cells = math.MaxInt
		} else {
			info.Cells *= l
		}
	}
	if micro != "" {
		var mj struct {
			Records          int      `json:"records"`
			MaxCells         int      `json:"max_cells"`
			ProtectCollapsed bool     `json:"protect_collapsed"`
			MinLevelCount    int      `json:"min_level_count"`
			LevelsGiven      []string `json:"levels_given"`
		}
		if err := json.Unmarshal([]byte(micro), &mj); err != nil {
			return nil, err
		}
		info.Microdata, info.Records = true, mj.Records
		info.MicrodataOptions = &MicrodataOptions{MaxCells: mj.MaxCells, ProtectCollapsed: mj.ProtectCollapsed,
			MinLevelCount: mj.MinLevelCount, LevelsGiven: mj.LevelsGiven}
		if info.MicrodataOptions.MaxCells == 0 {
			info.MicrodataOptions.MaxCells = audit.DefaultMaxCells
		}
		if info.MicrodataOptions.LevelsGiven == nil {
			info.MicrodataOptions.LevelsGiven = []string{}
		}
	}
	return &info, nil
}

// policy reads a table's current policy.
func (s *Store) policy(ctx context.Context, tableID int64) (audit.Policy, error) {
	var p audit.Policy
	var pj string
	err := s.db.QueryRowContext(ctx, `SELECT policy_json FROM policies WHERE table_id = ? ORDER BY id DESC LIMIT 1`, tableID).Scan(&pj)
	if err != nil {
		return p, err
	}
	err = json.Unmarshal([]byte(pj), &p)
	return p, err
}

// loadTable reads a table's counts, or its microdata.
func (s *Store) loadTable(ctx context.Context, info *TableInfo) (*confData, error) {
	var counts, micro string
	if err := s.db.QueryRowContext(ctx, `SELECT counts_json, micro_json FROM conf_tables WHERE id = ?`, info.ID).Scan(&counts, &micro); err != nil {
		return nil, err
	}
	if micro != "" {
		var mj microJSON
		if err := json.Unmarshal([]byte(micro), &mj); err != nil {
			return nil, err
		}
		levels, cs := make([][]int32, len(mj.Cells)), make([]int64, len(mj.Cells))
		for i, row := range mj.Cells {
			if len(row) != len(info.Vars)+1 {
				return nil, fmt.Errorf("table %q: stored microdata cell %d has %d fields for %d variables", info.Name, i, len(row), len(info.Vars))
			}
			levels[i] = make([]int32, len(info.Vars))
			for j := range info.Vars {
				levels[i][j] = int32(row[j])
			}
			cs[i] = row[len(info.Vars)]
		}
		md, err := datasets.MicrodataFromCells(info.Source, info.Vars, levels, cs)
		if err != nil {
			return nil, fmt.Errorf("table %q: %w", info.Name, err)
		}
		return &confData{table: &model.Table{Vars: info.Vars}, md: md,
			mopt: audit.MicrodataOptions{MaxCells: mj.MaxCells, ProtectCollapsed: mj.ProtectCollapsed}}, nil
	}
	var c []int64
	if err := json.Unmarshal([]byte(counts), &c); err != nil {
		return nil, err
	}
	t, err := model.NewTable(info.Vars, c)
	if err != nil {
		return nil, err
	}
	return &confData{table: t}, nil
}

// PublicRelease is one released margin as the public sees it.
type PublicRelease struct {
	Seq           int       `json:"seq"`
	Margin        []string  `json:"margin"`
	Counts        []int64   `json:"counts"`
	Simulated     bool      `json:"simulated"`
	RequestID     string    `json:"request_id"`
	Time          time.Time `json:"time"`
	PolicyVersion string    `json:"policy_version"`
}

// Releases lists a table's public releases in order.
func (s *Store) Releases(ctx context.Context, name string) ([]PublicRelease, error) {
	info, err := s.Table(ctx, name)
	if err != nil {
		return nil, err
	}
	return s.releases(ctx, s.db, info.ID)
}

type querier interface {
	QueryContext(ctx context.Context, q string, args ...any) (*sql.Rows, error)
}

func (s *Store) releases(ctx context.Context, q querier, tableID int64) ([]PublicRelease, error) {
	rows, err := q.QueryContext(ctx, `SELECT seq, margin, counts_json, simulated, request_id, time, policy_version
		FROM releases WHERE table_id = ? ORDER BY seq`, tableID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []PublicRelease{}
	for rows.Next() {
		var r PublicRelease
		var margin, counts, tm string
		var sim int
		if err := rows.Scan(&r.Seq, &margin, &counts, &sim, &r.RequestID, &tm, &r.PolicyVersion); err != nil {
			return nil, err
		}
		r.Margin = strings.Split(margin, ":")
		if err := json.Unmarshal([]byte(counts), &r.Counts); err != nil {
			return nil, err
		}
		r.Simulated = sim != 0
		r.Time, _ = time.Parse(time.RFC3339Nano, tm)
		out = append(out, r)
	}
	return out, rows.Err()
}

// history rebuilds the audit history of a table from its releases.
func (s *Store) history(ctx context.Context, info *TableInfo, t *model.Table) (*audit.History, error) {
	rels, err := s.releases(ctx, s.db, info.ID)
	if err != nil {
		return nil, err
	}
	h := audit.NewHistory(t)
	for _, r := range rels {
		h.Releases = append(h.Releases, audit.Release{Margin: r.Margin, Counts: r.Counts, Simulated: r.Simulated,
			RequestID: r.RequestID, Time: r.Time, PolicyVersion: r.PolicyVersion})
	}
	return h, nil
}

// storedDecision is a decision already in the log.
type storedDecision struct {
	request string
	public  audit.PublicDecision
}

// decisionByKey finds a decision by idempotency key.
func (s *Store) decisionByKey(ctx context.Context, tableID int64, key string) (*storedDecision, error) {
	var req, pub string
	err := s.db.QueryRowContext(ctx, `SELECT request_json, public_json FROM decisions WHERE table_id = ? AND idem_key = ?`, tableID, key).Scan(&req, &pub)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	d := &storedDecision{request: req}
	if err := json.Unmarshal([]byte(pub), &d.public); err != nil {
		return nil, err
	}
	return d, nil
}

// record writes a decision and, unless denied, its release in one
// transaction; seq is the release's position in the history.
func (s *Store) record(ctx context.Context, tableID int64, key, request string, d *audit.Decision, seq int) error {
	pub, _ := json.Marshal(d.Public())
	op, _ := json.Marshal(d)
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	margin := strings.Join(d.Margin, ":")
	tm := d.Time.UTC().Format(time.RFC3339Nano)
	res, err := tx.ExecContext(ctx, `INSERT INTO decisions (table_id, idem_key, request_json, requester, time, margin, mode, outcome, policy_version, public_json, operator_json)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, tableID, key, request, d.Requester, tm, margin, d.Mode, d.Outcome, d.PolicyVersion, string(pub), string(op))
	if err != nil {
		return err
	}
	if d.Outcome != audit.Denied {
		id, _ := res.LastInsertId()
		counts, _ := json.Marshal(d.Counts)
		sim := 0
		if d.Simulated {
			sim = 1
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO releases (table_id, seq, decision_id, margin, counts_json, simulated, request_id, requester, time, policy_version)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, tableID, seq, id, margin, string(counts), sim, d.RequestID, d.Requester, tm, d.PolicyVersion); err != nil {
			return err
		}
	}
	return tx.Commit()
}

// LogEntry is one decision of the operator's audit log.
type LogEntry struct {
	ID             int64           `json:"id"`
	IdempotencyKey string          `json:"idempotency_key"`
	Requester      string          `json:"requester"`
	Time           string          `json:"time"`
	Margin         string          `json:"margin"`
	Mode           string          `json:"mode"`
	Outcome        string          `json:"outcome"`
	PolicyVersion  string          `json:"policy_version"`
	Decision       json.RawMessage `json:"decision"`
}

// AuditLog lists a table's decisions, oldest first.
func (s *Store) AuditLog(ctx context.Context, name string) ([]LogEntry, error) {
	info, err := s.Table(ctx, name)
	if err != nil {
		return nil, err
	}
	rows, err := s.db.QueryContext(ctx, `SELECT id, idem_key, requester, time, margin, mode, outcome, policy_version, operator_json
		FROM decisions WHERE table_id = ? ORDER BY id`, info.ID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []LogEntry{}
	for rows.Next() {
		var e LogEntry
		var op string
		if err := rows.Scan(&e.ID, &e.IdempotencyKey, &e.Requester, &e.Time, &e.Margin, &e.Mode, &e.Outcome, &e.PolicyVersion, &op); err != nil {
			return nil, err
		}
		e.Decision = json.RawMessage(op)
		out = append(out, e)
	}
	return out, rows.Err()
}

// CheckName accepts table names of 1-64 letters, digits, '-', '_' and
// '.', except "." and ".." (a URL path cannot reach them); others are
// ErrName.
func CheckName(name string) error {
	if name == "" || len(name) > 64 {
		return fmt.Errorf("%w: %q: want 1-64 characters", ErrName, name)
	}
	if name == "." || name == ".." {
		return fmt.Errorf("%w: %q is not reachable in a URL", ErrName, name)
	}
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.') {
			return fmt.Errorf("%w: %q: only letters, digits, '-', '_' and '.'", ErrName, name)
		}
	}
	return nil
}
