package abi

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/crdlab/crdlab/crdtest"
	"github.com/crdlab/crdlab/wire"
)

// TestTestOp: "test" over files in memory answers what `crdlab test -o
// json` prints for the same files on disk (durations aside).
func TestTestOp(t *testing.T) {
	root := filepath.Join("..", "..", "..", "crdtest")
	files := map[string]string{}
	// Every YAML file of crdtest/testdata: suites, CRDs, policy files.
	err := filepath.WalkDir(filepath.Join(root, "testdata"), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".yaml") {
			return err
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		files[filepath.ToSlash(rel)] = readTestFile(t, filepath.Join("crdtest", rel))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 12 {
		t.Fatalf("only %d files under crdtest/testdata", len(files))
	}
	tests := []struct {
		name  string
		paths []string
		run   string
	}{
		{"everything", nil, ""},
		{"one directory", []string{"testdata/widgets"}, ""},
		{"run filter", []string{"testdata"}, "onUpdate"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			wd, _ := os.Getwd()
			if err := os.Chdir(root); err != nil {
				t.Fatal(err)
			}
			paths := tt.paths
			if paths == nil {
				paths = []string{"testdata"}
			}
			opts := crdtest.Options{}
			if tt.run != "" {
				opts.Run = regexp.MustCompile(tt.run)
			}
			rep, err := crdtest.RunPaths(opts, paths...)
			os.Chdir(wd)
			if err != nil {
				t.Fatal(err)
			}
			want, _ := json.Marshal(rep.Wire())
			env := call(t, NewServer(), request(t, map[string]interface{}{"op": "test", "files": files, "paths": tt.paths, "run": tt.run}))
			if !env.OK {
				t.Fatalf("test: %+v", env.Error)
			}
			got := seconds.ReplaceAllString(string(env.Result), `"seconds":0`)
			if w := seconds.ReplaceAllString(string(want), `"seconds":0`); got != w {
				t.Fatalf("test:\n got %s\nwant %s", got, w)
			}
			var tr wire.TestReport
			json.Unmarshal(env.Result, &tr)
			if tr.Passed == 0 || (tt.name == "everything" && tr.Failed == 0) {
				t.Fatalf("a run with %d passed and %d failed cases tests nothing", tr.Passed, tr.Failed)
			}
		})
	}
}

func TestTestOpErrors(t *testing.T) {
	suite := "name: S\ncrd: missing.yaml\ntests:\n  onCreate:\n  - name: c\n    initial: 'kind: X'\n"
	tests := []struct {
		name string
		req  map[string]interface{}
		code wire.ErrorCode
		msg  string
	}{
		{"no files", map[string]interface{}{"op": "test"}, wire.CodeBadRequest, `needs "files"`},
		{"bad regexp", map[string]interface{}{"op": "test", "files": map[string]string{"a.testsuite.yaml": suite}, "run": "("}, wire.CodeBadRequest, `"run": error parsing regexp`},
		{"path outside the tree", map[string]interface{}{"op": "test", "files": map[string]string{"../a.testsuite.yaml": suite}}, wire.CodeInvalid, `want a relative slash-separated path`},
		{"missing path", map[string]interface{}{"op": "test", "files": map[string]string{"a.testsuite.yaml": suite}, "paths": []string{"b"}}, wire.CodeInvalid, `b: file does not exist`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := call(t, NewServer(), request(t, tt.req))
			if env.OK || env.Error.Code != tt.code || !strings.Contains(env.Error.Message, tt.msg) {
				t.Fatalf("got %s %+v, want %s containing %q", env.Result, env.Error, tt.code, tt.msg)
			}
		})
	}
	// A suite whose CRD is missing is a load error of the report, as on disk.
	env := call(t, NewServer(), request(t, map[string]interface{}{"op": "test", "files": map[string]string{"a.testsuite.yaml": suite}}))
	var tr wire.TestReport
	if err := json.Unmarshal(env.Result, &tr); err != nil || len(tr.LoadErrors) != 1 || !strings.Contains(tr.LoadErrors[0].Error, `crd "missing.yaml": no such CRD file`) {
		t.Fatalf("missing CRD: %s %+v", env.Result, env.Error)
	}
}
