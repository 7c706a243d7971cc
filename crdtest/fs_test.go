package crdtest

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestRunFilesIsRunPaths: the same tree in memory and on disk gives the
// same report (durations aside), with each way of naming paths and CRDs.
func TestRunFilesIsRunPaths(t *testing.T) {
	files := map[string][]byte{}
	err := filepath.WalkDir("testdata", func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			files[filepath.ToSlash(p)] = b
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	durations := regexp.MustCompile(`"seconds":[0-9.e+-]+`)
	for _, tt := range []struct {
		name  string
		opts  Options
		paths []string
	}{
		{"a directory", Options{}, []string{"testdata"}},
		{"a file and a directory", Options{}, []string{"testdata/failing/failing.testsuite.yaml", "testdata/widgets/"}},
		{"run filter and --crd", Options{Run: regexp.MustCompile("status"), CRDs: []string{"testdata/widgets/widgets-crd.yaml"}}, []string{"testdata"}},
		{"missing path", Options{}, []string{"testdata/nope"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			disk, errDisk := RunPaths(tt.opts, tt.paths...)
			mem, errMem := RunFiles(files, tt.opts, tt.paths...)
			if (errDisk == nil) != (errMem == nil) {
				t.Fatalf("disk error %v, memory error %v", errDisk, errMem)
			}
			if errDisk != nil {
				if !strings.Contains(errMem.Error(), "testdata/nope") {
					t.Errorf("memory error %v does not name the path", errMem)
				}
				return
			}
			a, _ := json.Marshal(disk.Wire())
			b, _ := json.Marshal(mem.Wire())
			if x, y := durations.ReplaceAllString(string(a), ""), durations.ReplaceAllString(string(b), ""); x != y {
				t.Errorf("disk and memory differ\ndisk:   %s\nmemory: %s", x, y)
			}
			if len(disk.Results) == 0 {
				t.Error("no cases ran")
			}
		})
	}
}

func TestMemFSNames(t *testing.T) {
	for _, tt := range []struct {
		files map[string][]byte
		err   string
	}{
		{map[string][]byte{"/abs.yaml": nil}, `file name "/abs.yaml": want a relative`},
		{map[string][]byte{"../up.yaml": nil}, `file name "../up.yaml": want a relative`},
		{map[string][]byte{"a/b.yaml": nil, "./a/b.yaml": nil}, `given twice`},
		{map[string][]byte{"a": nil, "a/b.yaml": nil}, `"a" is also a file`},
		{map[string][]byte{"a/./b.yaml": nil, `c\d.yaml`: nil}, ``},
	} {
		_, err := newMemFS(tt.files)
		if (tt.err == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tt.err)) {
			t.Errorf("%v: error %v, want %q", tt.files, err, tt.err)
		}
	}
}
