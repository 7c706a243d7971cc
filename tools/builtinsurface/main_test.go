package main

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// TestRegeneratingGivesTheCommittedData runs the generator over the
// upstream modules (the module cache, or the Go module proxy) and fails
// when internal/builtin's surface.tsv or schemas.json.gz differ from what
// it writes: the committed data is upstream's, not edited by hand.
func TestRegeneratingGivesTheCommittedData(t *testing.T) {
	surface, schemas, err := generate(true)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join("..", "..", "internal", "builtin")
	committed, err := os.ReadFile(filepath.Join(dir, "surface.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(committed, surface) {
		t.Errorf("internal/builtin/surface.tsv is not what tools/builtinsurface generates: run\n\tgo -C tools run ./builtinsurface -o ../internal/builtin/surface.tsv -schemas ../internal/builtin/schemas.json.gz")
	}
	gz, err := os.ReadFile(filepath.Join(dir, "schemas.json.gz"))
	if err != nil {
		t.Fatal(err)
	}
	r, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		t.Fatal(err)
	}
	committedSchemas, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(committedSchemas, schemas) {
		t.Errorf("internal/builtin/schemas.json.gz (%d bytes uncompressed) is not what tools/builtinsurface generates (%d bytes): regenerate it as above", len(committedSchemas), len(schemas))
	}
}
