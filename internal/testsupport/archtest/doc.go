// Package archtest holds the tests that keep ARCHITECTURE.md true, run by
// `make check`. It has no code of its own.
//
// archtest_test.go reads the map's tables: every package of the main
// module appears in the package table with a layer, every package the
// table names exists, the public API it states is the module's importable
// packages, and no import breaks the layer rules.
//
// map_test.go reads the whole repository with go/parser (every module's
// packages, without building them) and checks the rest of the page: every
// path it names in a code span, a link or a fenced diagram exists (from the
// repository root; * and <placeholder> match one name; other modules'
// import paths and the standard library's are left alone); every Go name
// written package.Name, path/to/package.Name, package.Type.Member or
// Type.Member resolves against the packages' top-level declarations and
// their types' methods and fields; every `make target` is a target of the
// Makefile or the *.mk beside it; every `crdlab command` is in cmd/crdlab's
// command table (the name of every command literal, and the words run
// answers itself) and its flags are flags some command declares; every
// `go doc ./dir` names a package; no code span is broken across lines
// (it would not be checked). Besides: every Go package of every module
// has a package doc comment in a non-test file (what go doc shows), the
// list items of a doc comment that start with file names ("  - a.go, b.go:
// what they hold") name files of the package, and a doc comment with a
// "# Files" heading lists every file of its package; every nested module
// has a `module` row; every package of the public API has an example; the
// page stays under 16 KiB.
// TestMapCheckFlagsWhatIsStale shows each check failing on a small
// repository held in memory.
package archtest
