// Package archtest holds the test that keeps ARCHITECTURE.md true: every
// package of the main module appears in its package table with a layer,
// every package the table names exists, the public API it states is the
// module's importable packages, and no import breaks its layer rules. It
// has no code of its own; `make check` runs its test.
package archtest
