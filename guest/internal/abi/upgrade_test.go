package abi

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/crdlab/crdlab/upgrade"
	"github.com/crdlab/crdlab/wire"
)

// TestUpgrade: "upgrade" answers json.Marshal of upgrade.Check's report,
// the document `crdlab upgrade -o json` prints.
func TestUpgrade(t *testing.T) {
	old := readTestFile(t, "examples/upgrade/old.yaml")
	small := readTestFile(t, "examples/upgrade/small.yaml")
	big := readTestFile(t, "examples/upgrade/big.yaml")
	for _, newFile := range []string{"new.yaml", "new-drop-v1.yaml"} {
		for _, opts := range []upgrade.Options{{}, {StoredVersions: []string{"v2"}, FailOnBreaking: true}} {
			newCRD := readTestFile(t, "examples/upgrade/"+newFile)
			rep, err := upgrade.Check([]byte(old), []byte(newCRD), []upgrade.Object{{Source: "small.yaml", Data: []byte(small)}, {Source: "objects[1]", Data: []byte(big)}}, opts)
			if err != nil {
				t.Fatal(err)
			}
			want, _ := json.Marshal(rep)
			env := call(t, NewServer(), request(t, map[string]interface{}{"op": "upgrade", "oldCrd": old, "crd": newCRD,
				"objects": []string{small, big}, "sources": []string{"small.yaml"}, "storedVersions": opts.StoredVersions, "failOnBreaking": opts.FailOnBreaking}))
			if !env.OK || string(env.Result) != string(want) {
				t.Fatalf("%s %+v:\n got %s %v\nwant %s", newFile, opts, env.Result, env.Error, want)
			}
		}
	}
	env := call(t, NewServer(), request(t, map[string]interface{}{"op": "upgrade", "oldCrd": "a: [b", "crd": old}))
	if env.OK || env.Error.Code != wire.CodeDecodeError || !strings.HasPrefix(env.Error.Message, "old CRD: ") {
		t.Fatalf("bad old CRD: %+v", env.Error)
	}
	env = call(t, NewServer(), request(t, map[string]interface{}{"op": "upgrade", "oldCrd": old, "crd": old, "sources": []string{"a"}}))
	if env.OK || env.Error.Code != wire.CodeBadRequest {
		t.Fatalf("more sources than objects: %+v", env.Error)
	}
}
