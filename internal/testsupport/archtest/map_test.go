package archtest

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
)

// maxMapBytes is ARCHITECTURE.md's size limit: a map that fits in a head.
// What is finer belongs in the package doc comments (doc.go) and docs/.
const maxMapBytes = 16 * 1024

// goPkg is what the map check reads of one directory's Go package.
type goPkg struct {
	dir     string // slash path from the repository root ("" for the root)
	name    string
	doc     bool                       // a package doc comment in one of its files
	docText string                     // its text
	files   []string                   // its non-test .go files
	example bool                       // a test file (either test package) has an Example function
	decls   map[string]bool            // top-level names: funcs, types, vars, consts
	members map[string]map[string]bool // type name → its methods and fields
}

// repo is what the map check knows of the repository: its Go packages
// (every module's), its nested modules, crdlab's commands and flags and
// the make targets.
type repo struct {
	fsys     fs.FS
	pkgs     map[string]*goPkg   // by directory
	byName   map[string][]*goPkg // by package name
	byType   map[string][]*goPkg // by the name of a type they declare
	modules  []string            // the directories of the nested modules (go.mod)
	commands map[string]bool     // crdlab's commands (cmd/crdlab)
	flags    map[string]bool     // every flag any crdlab command declares
	targets  map[string]bool     // the targets of the Makefile and the *.mk it includes
	std      func(string) bool   // whether a path is a standard library package
}

// skipDir: the directories the go tool ignores, and the JavaScript
// dependencies.
func skipDir(name string) bool {
	return name == "testdata" || name == "node_modules" || name == "vendor" ||
		strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")
}

// loadRepo reads fsys (the repository root).
func loadRepo(fsys fs.FS, std func(string) bool) (*repo, error) {
	r := &repo{fsys: fsys, pkgs: map[string]*goPkg{}, byName: map[string][]*goPkg{}, byType: map[string][]*goPkg{},
		commands: map[string]bool{}, flags: map[string]bool{}, targets: map[string]bool{}, std: std}
	fset := token.NewFileSet()
	type parsed struct {
		file *ast.File
		test bool
	}
	files := map[string][]parsed{}
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != "." && skipDir(d.Name()) {
				return fs.SkipDir
			}
			return nil
		}
		if d.Name() == "go.mod" && p != "go.mod" {
			r.modules = append(r.modules, path.Dir(p))
		}
		if !strings.HasSuffix(p, ".go") || !d.Type().IsRegular() {
			return nil
		}
		src, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		f, err := parser.ParseFile(fset, p, src, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		dir := path.Dir(p)
		if dir == "." {
			dir = ""
		}
		files[dir] = append(files[dir], parsed{f, strings.HasSuffix(p, "_test.go")})
		return nil
	})
	if err != nil {
		return nil, err
	}
	for dir, fs := range files {
		// The package is its non-test files' (a directory with test files
		// only: theirs, without the external test package).
		name := ""
		for _, f := range fs {
			if !f.test {
				name = f.file.Name.Name
				break
			}
		}
		if name == "" {
			for _, f := range fs {
				if n := f.file.Name.Name; !strings.HasSuffix(n, "_test") {
					name = n
					break
				}
			}
		}
		if name == "" {
			continue
		}
		p := &goPkg{dir: dir, name: name, decls: map[string]bool{}, members: map[string]map[string]bool{}}
		for _, f := range fs {
			if f.test {
				for _, d := range f.file.Decls {
					if fn, ok := d.(*ast.FuncDecl); ok && fn.Recv == nil && strings.HasPrefix(fn.Name.Name, "Example") {
						p.example = true
					}
				}
			}
			if f.file.Name.Name != name {
				continue
			}
			// The comment go doc shows: a non-test file's.
			if f.file.Doc != nil && !f.test {
				p.doc = true
				p.docText += f.file.Doc.Text()
			}
			if !f.test {
				p.files = append(p.files, path.Base(fset.File(f.file.Package).Name()))
			}
			p.addDecls(f.file)
		}
		r.pkgs[dir] = p
		r.byName[name] = append(r.byName[name], p)
		for t := range p.members {
			r.byType[t] = append(r.byType[t], p)
		}
	}
	sort.Strings(r.modules)
	if p := r.pkgs["cmd/crdlab"]; p != nil {
		for _, f := range files["cmd/crdlab"] {
			if !f.test {
				r.readCommands(f.file)
			}
		}
	}
	return r, r.readTargets()
}

// addDecls records f's top-level names, and the methods and fields of its
// types.
func (p *goPkg) addDecls(f *ast.File) {
	member := func(typ, name string) {
		if p.members[typ] == nil {
			p.members[typ] = map[string]bool{}
		}
		p.members[typ][name] = true
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil || len(d.Recv.List) == 0 {
				p.decls[d.Name.Name] = true
				continue
			}
			if t := typeName(d.Recv.List[0].Type); t != "" {
				member(t, d.Name.Name)
			}
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					p.decls[s.Name.Name] = true
					if p.members[s.Name.Name] == nil {
						p.members[s.Name.Name] = map[string]bool{}
					}
					var list *ast.FieldList
					switch t := s.Type.(type) {
					case *ast.StructType:
						list = t.Fields
					case *ast.InterfaceType:
						list = t.Methods
					}
					if list == nil {
						continue
					}
					for _, fld := range list.List {
						for _, n := range fld.Names {
							member(s.Name.Name, n.Name)
						}
						if len(fld.Names) == 0 {
							if t := typeName(fld.Type); t != "" {
								member(s.Name.Name, t)
							}
						}
					}
				case *ast.ValueSpec:
					for _, n := range s.Names {
						p.decls[n.Name] = true
					}
				}
			}
		}
	}
}

// typeName is the name of a receiver or embedded field's type: T, *T,
// T[P], pkg.T.
func typeName(e ast.Expr) string {
	switch t := e.(type) {
	case *ast.Ident:
		return t.Name
	case *ast.StarExpr:
		return typeName(t.X)
	case *ast.IndexExpr:
		return typeName(t.X)
	case *ast.IndexListExpr:
		return typeName(t.X)
	case *ast.SelectorExpr:
		return t.Sel.Name
	}
	return ""
}

// readCommands records crdlab's commands: the name of every `command`
// literal, and the words run answers itself (help, version); and the flags
// the commands declare (pflag's XVar(&v, "name", ...), XVarP, and
// X("name", ...)).
func (r *repo) readCommands(f *ast.File) {
	str := func(e ast.Expr) (string, bool) {
		lit, ok := e.(*ast.BasicLit)
		if !ok || lit.Kind != token.STRING {
			return "", false
		}
		s, err := strconv.Unquote(lit.Value)
		return s, err == nil
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CompositeLit:
			if id, ok := n.Type.(*ast.Ident); ok && id.Name == "command" {
				for _, e := range n.Elts {
					if kv, ok := e.(*ast.KeyValueExpr); ok {
						if k, ok := kv.Key.(*ast.Ident); ok && k.Name == "name" {
							if s, ok := str(kv.Value); ok {
								r.commands[s] = true
							}
						}
					}
				}
			}
		case *ast.FuncDecl:
			if n.Name.Name == "run" && n.Recv == nil {
				// The words run's switch answers before the command table.
				ast.Inspect(n.Body, func(n ast.Node) bool {
					if cc, ok := n.(*ast.CaseClause); ok {
						for _, e := range cc.List {
							if s, ok := str(e); ok && !strings.HasPrefix(s, "-") {
								r.commands[s] = true
							}
						}
					}
					return true
				})
			}
		case *ast.CallExpr:
			sel, ok := n.Fun.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			m := sel.Sel.Name
			arg := -1
			switch {
			case strings.HasSuffix(m, "Var") || strings.HasSuffix(m, "VarP"):
				arg = 1
			case strings.HasSuffix(m, "P") || m == "String" || m == "Bool" || m == "Int" || m == "Duration" || m == "StringSlice" || m == "StringArray":
				arg = 0
			}
			if arg >= 0 && len(n.Args) > arg+1 {
				if s, ok := str(n.Args[arg]); ok && s != "" {
					r.flags["--"+s] = true
					if strings.HasSuffix(m, "P") {
						if short, ok := str(n.Args[arg+1]); ok && short != "" {
							r.flags["-"+short] = true
						}
					}
				}
			}
		}
		return true
	})
}

var targetLine = regexp.MustCompile(`^([A-Za-z0-9_./%-]+(?:[ \t]+[A-Za-z0-9_./%-]+)*)[ \t]*:([^=]|$)`)

// readTargets records the targets of the root Makefile and the *.mk files
// beside it (the ones it includes).
func (r *repo) readTargets() error {
	names, err := fs.Glob(r.fsys, "*.mk")
	if err != nil {
		return err
	}
	for _, name := range append([]string{"Makefile"}, names...) {
		b, err := fs.ReadFile(r.fsys, name)
		if err != nil {
			if name == "Makefile" && os.IsNotExist(err) {
				continue
			}
			return err
		}
		for _, line := range strings.Split(string(b), "\n") {
			if m := targetLine.FindStringSubmatch(line); m != nil {
				for _, t := range strings.Fields(m[1]) {
					r.targets[t] = true
				}
			}
		}
	}
	return nil
}

var (
	ident    = regexp.MustCompile(`^((?:[A-Za-z0-9_.-]+/)*)([A-Za-z_]\w*)\.([A-Za-z_]\w*)(?:\.([A-Za-z_]\w*))?(?:\(\))?$`)
	fileExt  = regexp.MustCompile(`\.(go|md|mod|sum|ya?ml|json|mk|sh|js|mjs|ts|lua|golden|txt|html|css)$`)
	link     = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	fence    = regexp.MustCompile("^\\s*```")
	wordTrim = "`,.;:()[]'\""
)

// mapErrors lists what text (ARCHITECTURE.md) says that r contradicts: a
// file, directory, identifier, make target or crdlab command (or flag) it
// names in code spans, fenced blocks or links that does not exist.
func (r *repo) mapErrors(text string) []string {
	var out []string
	seen := map[string]bool{}
	report := func(line int, format string, a ...any) {
		msg := fmt.Sprintf("ARCHITECTURE.md:%d: ", line) + fmt.Sprintf(format, a...)
		if !seen[msg] {
			seen[msg] = true
			out = append(out, msg)
		}
	}
	inFence := false
	for i, line := range strings.Split(text, "\n") {
		n := i + 1
		if fence.MatchString(line) {
			inFence = !inFence
			continue
		}
		if inFence {
			// A diagram or a shell sample: its words with a slash are paths.
			for _, w := range strings.Fields(line) {
				w = strings.Trim(w, wordTrim)
				if strings.Contains(w, "/") {
					if msg := r.pathError(w); msg != "" {
						report(n, "%s", msg)
					}
				}
			}
			continue
		}
		for _, m := range link.FindAllStringSubmatch(line, -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "#") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			target, _, _ = strings.Cut(target, "#")
			if msg := r.pathError(target); msg != "" {
				report(n, "link: %s", msg)
			}
		}
		if strings.Count(line, "`")%2 == 1 {
			report(n, "a code span across lines: keep it on one line, so that it is checked")
		}
		for _, span := range codes(line) {
			if msg := r.spanError(span); msg != "" {
				report(n, "%s", msg)
			}
		}
	}
	return out
}

// spanError checks one code span: a make target, a crdlab command line, a
// path or a Go identifier; other spans are not checked.
func (r *repo) spanError(span string) string {
	span = strings.TrimSpace(span)
	words := strings.Fields(span)
	switch {
	case len(words) == 0:
		return ""
	case words[0] == "make" && len(words) > 1:
		for _, w := range words[1:] {
			if strings.HasPrefix(w, "-") || strings.Contains(w, "=") {
				continue
			}
			if !r.targets[w] {
				return fmt.Sprintf("`%s`: make has no target %q (Makefile, *.mk)", span, w)
			}
		}
		return ""
	case words[0] == "go" && len(words) == 3 && words[1] == "doc":
		// go doc ./path/to/package: a directory of Go files.
		dir := strings.TrimSuffix(strings.TrimPrefix(words[2], "./"), "/")
		if r.pkgs[dir] == nil {
			return fmt.Sprintf("`%s`: no Go package in %s/", span, dir)
		}
		return ""
	case words[0] == "crdlab" && len(words) > 1:
		if !strings.HasPrefix(words[1], "-") && !r.commands[words[1]] {
			return fmt.Sprintf("`%s`: crdlab has no command %q (cmd/crdlab's command table)", span, words[1])
		}
		for _, w := range words[1:] {
			flag, _, _ := strings.Cut(w, "=")
			if strings.HasPrefix(flag, "-") && !r.flags[flag] {
				return fmt.Sprintf("`%s`: no crdlab command has the flag %s", span, flag)
			}
		}
		return ""
	case len(words) > 1:
		return "" // prose or code
	case fileExt.MatchString(span):
		return r.pathError(span)
	}
	if m := ident.FindStringSubmatch(span); m != nil {
		pkgPath := strings.TrimSuffix(m[1], "/")
		if first, _, _ := strings.Cut(pkgPath, "/"); strings.Contains(first, ".") {
			return "" // another module's identifier
		}
		return r.identError(span, pkgPath, m[2], m[3], m[4])
	}
	if strings.Contains(span, "/") {
		return r.pathError(span)
	}
	return ""
}

// pathError checks a path from the repository root: a file or directory
// (trailing slash), with * or <placeholder> as a wildcard of one name.
// Paths that are not the repository's are left alone: import paths of
// other modules (their first element has a dot) and of the standard
// library, and import patterns (x/...).
func (r *repo) pathError(p string) string {
	if strings.Contains(p, "...") || strings.HasPrefix(p, "$") || strings.HasPrefix(p, "~") {
		return ""
	}
	clean := strings.TrimSuffix(strings.TrimPrefix(p, "./"), "/")
	if clean == "" || clean == "." {
		return ""
	}
	first, _, _ := strings.Cut(clean, "/")
	if strings.Contains(first, ".") && strings.Contains(clean, "/") && !r.exists(first) {
		return "" // another module's import path
	}
	if r.std != nil && r.std(clean) {
		return ""
	}
	pattern := regexp.MustCompile(`<[^>]*>`).ReplaceAllString(clean, "*")
	matches, err := fs.Glob(r.fsys, pattern)
	if err != nil || len(matches) == 0 {
		return fmt.Sprintf("`%s`: no such file or directory (paths are from the repository root)", p)
	}
	if strings.HasSuffix(p, "/") {
		for _, m := range matches {
			if st, err := fs.Stat(r.fsys, m); err == nil && st.IsDir() {
				return ""
			}
		}
		return fmt.Sprintf("`%s`: not a directory", p)
	}
	return ""
}

func (r *repo) exists(p string) bool {
	_, err := fs.Stat(r.fsys, p)
	return err == nil
}

// identError resolves pkgPath.X.Y, pkg.X(.Y) or Type.Member against the
// packages' top-level declarations and their types' methods and fields.
func (r *repo) identError(span, pkgPath, a, b, c string) string {
	var candidates []*goPkg
	if pkgPath != "" {
		p := r.pkgs[path.Join(pkgPath, a)]
		if p == nil {
			return fmt.Sprintf("`%s`: no package %s/%s", span, pkgPath, a)
		}
		candidates = []*goPkg{p}
	} else {
		candidates = r.byName[a]
	}
	if len(candidates) > 0 {
		for _, p := range candidates {
			if !p.decls[b] {
				continue
			}
			if c == "" || p.members[b][c] {
				return ""
			}
		}
		if c != "" {
			return fmt.Sprintf("`%s`: package %s has no %s with a method or field %s", span, a, b, c)
		}
		return fmt.Sprintf("`%s`: package %s declares no %s", span, a, b)
	}
	// Type.Member
	if pkgs := r.byType[a]; len(pkgs) > 0 {
		for _, p := range pkgs {
			if p.members[a][b] {
				return ""
			}
		}
		return fmt.Sprintf("`%s`: type %s has no method or field %s", span, a, b)
	}
	return fmt.Sprintf("`%s`: no package or type %s (write Go names as package.Name or Type.Member)", span, a)
}

// undocumented lists the packages without a package doc comment, every
// module's.
func (r *repo) undocumented() []string {
	var out []string
	for dir, p := range r.pkgs {
		if !p.doc {
			if dir == "" {
				dir = "."
			}
			out = append(out, fmt.Sprintf("package %s (%s/) has no package doc comment (add a doc.go)", p.name, dir))
		}
	}
	sort.Strings(out)
	return out
}

var (
	listItem = regexp.MustCompile(`^\s+- (.*)$`)
	goFile   = regexp.MustCompile(`^[\w.-]+\.go$`)
)

// fileMapErrors checks the file maps of the package doc comments: the list
// items that start with file names ("  - a.go, b.go: what they hold") name
// files of the package, and a doc comment with a "# Files" heading names
// every non-test file of its package but doc.go.
func (r *repo) fileMapErrors() []string {
	var out []string
	for dir, p := range r.pkgs {
		if p.docText == "" {
			continue
		}
		has := map[string]bool{}
		for _, f := range p.files {
			has[f] = true
		}
		named := map[string]bool{}
		for _, line := range strings.Split(p.docText, "\n") {
			m := listItem.FindStringSubmatch(line)
			if m == nil {
				continue
			}
			head, _, ok := strings.Cut(m[1], ":")
			if !ok {
				continue
			}
			for _, name := range strings.FieldsFunc(head, func(r rune) bool { return r == ',' || r == ' ' }) {
				if name == "and" || !goFile.MatchString(name) {
					continue
				}
				named[name] = true
				if !has[name] {
					out = append(out, fmt.Sprintf("%s/: the package doc's file map names %s, which is not a file of the package", dir, name))
				}
			}
		}
		if strings.Contains(p.docText, "\n# Files\n") {
			for _, f := range p.files {
				if f != "doc.go" && !named[f] {
					out = append(out, fmt.Sprintf("%s/: %s is not in the package doc's file map (# Files)", dir, f))
				}
			}
		}
	}
	sort.Strings(out)
	return out
}

// withoutExamples lists the public packages (ARCHITECTURE.md's public API)
// that have no example.
func (r *repo) withoutExamples(d doc) []string {
	var out []string
	for _, dir := range d.public {
		if p := r.pkgs[dir]; p != nil && !p.example {
			out = append(out, fmt.Sprintf("public package %s has no example (an Example function in a _test.go file, which go doc shows)", dir))
		}
	}
	sort.Strings(out)
	return out
}

// unmappedModules lists the nested modules that no `module` row of the
// package table names (a row may use * for one name).
func (r *repo) unmappedModules(d doc) []string {
	var out []string
	for _, m := range r.modules {
		found := false
		for row, layer := range d.layerOf {
			if ok, _ := path.Match(row, m); ok && layer == "module" {
				found = true
				break
			}
		}
		if !found {
			out = append(out, fmt.Sprintf("module %s/ has no `module` row in ARCHITECTURE.md's package table", m))
		}
	}
	return out
}

// goStd reports whether p is a standard library package of this go.
func goStd(t *testing.T) func(string) bool {
	t.Helper()
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Fatalf("go env GOROOT: %v", err)
	}
	goroot := strings.TrimSpace(string(out))
	return func(p string) bool {
		st, err := os.Stat(filepath.Join(goroot, "src", filepath.FromSlash(p)))
		return err == nil && st.IsDir()
	}
}

var rootRepo struct {
	once sync.Once
	repo *repo
	err  error
}

// loadRoot returns the repository (read once for all the tests: it does
// not change while they run) and ARCHITECTURE.md.
func loadRoot(t *testing.T) (*repo, string) {
	t.Helper()
	dir := root(t)
	std := goStd(t)
	rootRepo.once.Do(func() { rootRepo.repo, rootRepo.err = loadRepo(os.DirFS(dir), std) })
	if rootRepo.err != nil {
		t.Fatal(rootRepo.err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "ARCHITECTURE.md"))
	if err != nil {
		t.Fatal(err)
	}
	return rootRepo.repo, string(b)
}

// TestMapNamesOnlyWhatExists: every file, directory, Go identifier, make
// target and crdlab command ARCHITECTURE.md names exists.
func TestMapNamesOnlyWhatExists(t *testing.T) {
	r, text := loadRoot(t)
	for _, e := range r.mapErrors(text) {
		t.Error(e)
	}
}

// TestMapFitsInAHead: ARCHITECTURE.md stays a map.
func TestMapFitsInAHead(t *testing.T) {
	_, text := loadRoot(t)
	if len(text) > maxMapBytes {
		t.Errorf("ARCHITECTURE.md is %d bytes, over the %d of a map: move the detail into the package doc comments (doc.go) or docs/", len(text), maxMapBytes)
	}
}

// TestEveryPackageHasADocComment: every Go package of the repository (the
// main module's and the nested modules', commands and test-only packages
// too) says what it is, in a comment go doc shows (not a test file's).
func TestEveryPackageHasADocComment(t *testing.T) {
	r, _ := loadRoot(t)
	for _, e := range r.undocumented() {
		t.Error(e)
	}
}

// TestPackageFileMapsAreTrue: the file maps of the package doc comments
// name files that exist, and a "# Files" section names them all.
func TestPackageFileMapsAreTrue(t *testing.T) {
	r, _ := loadRoot(t)
	for _, e := range r.fileMapErrors() {
		t.Error(e)
	}
}

// TestEveryPublicPackageHasAnExample: what ARCHITECTURE.md's public API
// lists, a user can read an example of.
func TestEveryPublicPackageHasAnExample(t *testing.T) {
	r, text := loadRoot(t)
	for _, e := range r.withoutExamples(parse(t, text)) {
		t.Error(e)
	}
}

// TestEveryModuleIsOnTheMap: every nested module has a `module` row.
func TestEveryModuleIsOnTheMap(t *testing.T) {
	r, text := loadRoot(t)
	for _, e := range r.unmappedModules(parse(t, text)) {
		t.Error(e)
	}
}

// TestMapCheckFlagsWhatIsStale: the checks above find a stale file, a
// stale function, type member, command, flag and make target, an
// undocumented package, a stale file map and an unmapped module, so that they cannot pass by
// reading nothing.
func TestMapCheckFlagsWhatIsStale(t *testing.T) {
	fsys := fstest.MapFS{
		"go.mod":              {Data: []byte("module m\n")},
		"Makefile":            {Data: []byte(".PHONY: check test\ncheck: ## c\n\tgo vet\ntest build: check\nX := 1\n")},
		"wasm.mk":             {Data: []byte("wasm: ## w\n")},
		"eng/doc.go":          {Data: []byte("// Package eng compiles.\npackage eng\n")},
		"eng/eng.go":          {Data: []byte("package eng\n\nfunc Compile() {}\n\ntype CRD struct{ Name string }\n\nfunc (c *CRD) Validate() {}\n\ntype Opts[T any] struct{ embedded }\n\ntype embedded struct{}\n\nvar defaults = 1\n")},
		"eng/sub/sub.go":      {Data: []byte("package sub\n\nfunc F() {}\n")},
		"cmd/crdlab/main.go":  {Data: []byte("// Command crdlab.\npackage main\n\nfunc run(args []string) {\n\tswitch args[0] {\n\tcase \"version\", \"--version\":\n\t}\n}\n\nvar validateCommand = &command{name: \"validate\"}\n\nfunc flags(fs *F) {\n\tfs.StringVarP(&o, \"output\", \"o\", \"text\", \"\")\n\tfs.BoolVar(&b, \"policy\", false, \"\")\n}\n")},
		"cmd/crdlab/cli.go":   {Data: []byte("package main\n\ntype command struct{ name string }\n")},
		"only/only_test.go":   {Data: []byte("// Package only has tests only; go doc shows no test file's comment.\npackage only\n")},
		"nested/go.mod":       {Data: []byte("module m/nested\n")},
		"nested/n.go":         {Data: []byte("package n\n")},
		"fm/doc.go":           {Data: []byte("// Package fm has a file map.\n//\n// # Files\n//\n//   - a.go, c.go: the first\n//   - gone.go: the second\n//   - not a file: prose\npackage fm\n")},
		"fm/a.go":             {Data: []byte("package fm\n")},
		"eng/example_test.go": {Data: []byte("package eng_test\n\nfunc ExampleCompile() {}\n")},
		"fm/b.go":             {Data: []byte("package fm\n")},
		"fm/c.go":             {Data: []byte("package fm\n")},
		"fm/c_test.go":        {Data: []byte("package fm\n")},
		"docs/cli.md":         {Data: []byte("# cli\n")},
	}
	r, err := loadRepo(fsys, func(p string) bool { return p == "os/exec" })
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, text string
		want       []string
	}{
		{"what exists passes", "`eng/eng.go`, `eng/`, `cmd/crdlab/<command>.go`, `cmd/*/main.go`, `go.mod`, [cli](docs/cli.md#flags), `os/exec`, `k8s.io/apiserver/pkg/x.go`, `x/...`\n" +
			"`eng.Compile`, `k8s.io/apiserver/pkg/cel.X`, `eng.CRD.Validate`, `eng.CRD.Name`, `CRD.Validate`, `Opts.embedded`, `eng.defaults`, `eng/sub.F`, `sub.F()`\n" +
			"`make check`, `make test build`, `make wasm`, `make check V=1`\n" +
			"`go doc ./eng`, `crdlab validate`, `crdlab validate -o json --policy=x`, `crdlab --output json`, `crdlab version`, `crdlab`, `a b.c`\n" +
			"```\n cmd/crdlab   eng/\n```\n", nil},
		{"a stale file", "see `eng/gone.go`", []string{"ARCHITECTURE.md:1: `eng/gone.go`: no such file or directory (paths are from the repository root)"}},
		{"a bare file name", "see `eng.go`", []string{"ARCHITECTURE.md:1: `eng.go`: no such file or directory (paths are from the repository root)"}},
		{"a file named as a directory", "`eng/eng.go/`", []string{"ARCHITECTURE.md:1: `eng/eng.go/`: not a directory"}},
		{"a stale link", "[x](docs/gone.md)", []string{"ARCHITECTURE.md:1: link: `docs/gone.md`: no such file or directory (paths are from the repository root)"}},
		{"a stale path in a diagram", "```\n  wasm/wasip1\n```", []string{"ARCHITECTURE.md:2: `wasm/wasip1`: no such file or directory (paths are from the repository root)"}},
		{"a stale function", "\n`eng.CompileAll`", []string{"ARCHITECTURE.md:2: `eng.CompileAll`: package eng declares no CompileAll"}},
		{"a stale method", "`eng.CRD.Check`", []string{"ARCHITECTURE.md:1: `eng.CRD.Check`: package eng has no CRD with a method or field Check"}},
		{"a stale type member", "`CRD.Check`", []string{"ARCHITECTURE.md:1: `CRD.Check`: type CRD has no method or field Check"}},
		{"a stale type", "`Admitter.Webhooks`", []string{"ARCHITECTURE.md:1: `Admitter.Webhooks`: no package or type Admitter (write Go names as package.Name or Type.Member)"}},
		{"a stale package path", "`eng/gone.F`", []string{"ARCHITECTURE.md:1: `eng/gone.F`: no package eng/gone"}},
		{"a stale command", "`crdlab admission --policy`", []string{"ARCHITECTURE.md:1: `crdlab admission --policy`: crdlab has no command \"admission\" (cmd/crdlab's command table)"}},
		{"a stale flag", "`crdlab validate --nope`", []string{"ARCHITECTURE.md:1: `crdlab validate --nope`: no crdlab command has the flag --nope"}},
		{"a stale go doc", "`go doc ./gone`", []string{"ARCHITECTURE.md:1: `go doc ./gone`: no Go package in gone/"}},
		{"a code span across lines", "a `go doc\n./gone` b", []string{
			"ARCHITECTURE.md:1: a code span across lines: keep it on one line, so that it is checked",
			"ARCHITECTURE.md:2: a code span across lines: keep it on one line, so that it is checked",
		}},
		{"a stale make target", "`make check fuzz`", []string{"ARCHITECTURE.md:1: `make check fuzz`: make has no target \"fuzz\" (Makefile, *.mk)"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := r.mapErrors(c.text)
			if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(c.want, "\n"))
			}
		})
	}
	t.Run("an undocumented package", func(t *testing.T) {
		got := r.undocumented()
		want := []string{
			"package n (nested/) has no package doc comment (add a doc.go)",
			"package only (only/) has no package doc comment (add a doc.go)",
			"package sub (eng/sub/) has no package doc comment (add a doc.go)",
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	})
	t.Run("a stale file map", func(t *testing.T) {
		got := r.fileMapErrors()
		want := []string{
			"fm/: b.go is not in the package doc's file map (# Files)",
			"fm/: the package doc's file map names gone.go, which is not a file of the package",
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	})
	t.Run("an unmapped module, a public package without an example", func(t *testing.T) {
		d := parse(t, "## Packages\n\n| package | layer | what |\n|---|---|---|\n| `eng` | `engine` | x |\n| `other/` | `module` | y |\n\n"+
			"## Layers\n\n| layer | may import | never imports |\n|---|---|---|\n| `engine` | `engine` | |\n\n**The public API**: `eng`.\n")
		got := r.unmappedModules(d)
		want := []string{"module nested/ has no `module` row in ARCHITECTURE.md's package table"}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		if got := r.withoutExamples(d); len(got) != 0 {
			t.Errorf("eng has an example: got %v", got)
		}
		d.public = append(d.public, "fm")
		if got, want := strings.Join(r.withoutExamples(d), "\n"), "public package fm has no example (an Example function in a _test.go file, which go doc shows)"; got != want {
			t.Errorf("a public package without an example: got %q, want %q", got, want)
		}
		d.layerOf["n*"] = "module"
		if got := r.unmappedModules(d); len(got) != 0 {
			t.Errorf("a glob row: got %v", got)
		}
	})
}
