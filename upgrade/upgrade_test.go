package upgrade

import (
	"os"
	"strings"
	"testing"
)

func readExample(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile("../examples/upgrade/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

const defaultedCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {plural: widgets, singular: widget, kind: Widget, listKind: WidgetList}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              size: {type: integer}
              color: {type: string, default: grey}
              legacy: {type: string}
`

func TestCheckStoredObjects(t *testing.T) {
	small := Object{Source: "small.yaml", Data: readExample(t, "small.yaml")}
	big := Object{Source: "big.yaml", Data: readExample(t, "big.yaml")}
	noColor := Object{Source: "nocolor", Data: []byte(`{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"n","namespace":"default"},"spec":{"size":1}}`)}
	tests := []struct {
		name     string
		old, new []byte
		objects  []Object
		opts     Options
		safe     bool
		want     []string // lines of summary(report)
	}{
		{
			name: "field removed and new storage version", old: readExample(t, "old.yaml"), new: readExample(t, "new.yaml"),
			objects: []Object{small, big},
			want: []string{
				"small.yaml v1: pruned [spec.legacy] defaulted [] noop true create true",
				"small.yaml v2: pruned [spec.legacy] defaulted [] noop true create true",
				"big.yaml v1: pruned [] defaulted [] noop true create true",
				// the new rule and enum fail a fresh create; written back at v2 the
				// request gains spec.replicas (v2's default, not applied on read),
				// so spec changed and its new rule is not ratcheted
				"big.yaml v2: pruned [] defaulted [] noop false create false",
			},
		},
		{
			name: "a version dropped after the storage migration", old: readExample(t, "old.yaml"), new: readExample(t, "new-drop-v1.yaml"),
			objects: []Object{small}, opts: Options{StoredVersions: []string{"v2"}},
			want: []string{"small.yaml v2: decode request to convert CR from an invalid group/version: example.com/v1"},
		},
		{
			name: "a new default appears on read", old: readExample(t, "old.yaml"), new: []byte(defaultedCRD),
			objects: []Object{noColor, small}, safe: true,
			want: []string{
				"nocolor v1: pruned [] defaulted [spec.color] noop true create true",
				"small.yaml v1: pruned [] defaulted [] noop true create true",
			},
		},
		{
			name: "rejected update reads nothing", old: readExample(t, "old.yaml"), new: readExample(t, "new-drop-v1.yaml"),
			objects: []Object{small},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep, err := Check(tt.old, tt.new, tt.objects, tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			if rep.Safe != tt.safe {
				t.Errorf("safe = %t, want %t", rep.Safe, tt.safe)
			}
			var got []string
			for _, o := range rep.Objects {
				for _, r := range o.Reads {
					if r.DecodeError != "" {
						got = append(got, o.Source+" "+r.Version+": decode "+r.DecodeError)
						continue
					}
					got = append(got, o.Source+" "+r.Version+": pruned ["+strings.Join(r.Pruned, " ")+"] defaulted ["+strings.Join(r.Defaulted, " ")+"] noop "+
						boolString(r.NoOpUpdate != nil && r.NoOpUpdate.Allowed)+" create "+boolString(r.Create != nil && r.Create.Allowed))
				}
			}
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}

func boolString(b bool) string {
	if b {
		return "true"
	}
	return "false"
}

func TestCheckDecodeErrors(t *testing.T) {
	old := readExample(t, "old.yaml")
	if _, err := Check([]byte("a: [b"), old, nil, Options{}); err == nil || !strings.Contains(err.Error(), "old CRD") {
		t.Errorf("bad old CRD: %v", err)
	}
	if _, err := Check(old, []byte(""), nil, Options{}); err == nil || !strings.Contains(err.Error(), "new CRD") {
		t.Errorf("empty new CRD: %v", err)
	}
	// Another kind is skipped.
	rep, err := Check(old, old, []Object{{Source: "ns", Data: []byte("apiVersion: v1\nkind: Namespace\nmetadata: {name: x}\n")}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Safe || rep.Objects[0].Skipped != "v1 Namespace is not a Widget of example.com" || len(rep.Objects[0].Reads) != 0 {
		t.Errorf("skipped: %+v", rep.Objects)
	}
	// A broken stored object is a finding, not an error.
	rep, err = Check(old, old, []Object{{Source: "bad", Data: []byte("kind: [")}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Safe || len(rep.Objects) != 1 || len(rep.Objects[0].Reads) != 1 || rep.Objects[0].Reads[0].DecodeError == "" {
		t.Errorf("report %+v", rep.Objects)
	}
}
