package lsp

import (
	"encoding/json"
	"os"
	"reflect"
	"sort"
	"strings"
	"testing"
)

// TestVSCodeExtensionSettingsAreTheServersOptions pins the VS Code
// extension's manifest (editors/vscode/package.json, packed by make vsix)
// to the server: it activates on YAML, and each crdlab.* setting it sends
// as initializationOptions (and workspace/didChangeConfiguration) is an
// Options field the server reads.
func TestVSCodeExtensionSettingsAreTheServersOptions(t *testing.T) {
	data, err := os.ReadFile("../../../editors/vscode/package.json")
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		Name             string            `json:"name"`
		Main             string            `json:"main"`
		Engines          map[string]string `json:"engines"`
		ActivationEvents []string          `json:"activationEvents"`
		Contributes      struct {
			Configuration struct {
				Properties map[string]json.RawMessage `json:"properties"`
			} `json:"configuration"`
		} `json:"contributes"`
	}
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	if m.Name != "crdlab" || m.Engines["vscode"] == "" || m.Main != "./dist/extension.js" {
		t.Errorf("manifest: name %q engines %v main %q", m.Name, m.Engines, m.Main)
	}
	if !reflect.DeepEqual(m.ActivationEvents, []string{"onLanguage:yaml"}) {
		t.Errorf("activationEvents %v", m.ActivationEvents)
	}
	var settings []string
	for k := range m.Contributes.Configuration.Properties {
		name := strings.TrimPrefix(k, "crdlab.")
		if name == "path" || strings.HasPrefix(name, "trace.") {
			continue // the client's own
		}
		settings = append(settings, name)
	}
	sort.Strings(settings)
	var fields []string
	rt := reflect.TypeOf(Options{})
	for i := 0; i < rt.NumField(); i++ {
		tag, _, _ := strings.Cut(rt.Field(i).Tag.Get("json"), ",")
		fields = append(fields, tag)
	}
	sort.Strings(fields)
	if !reflect.DeepEqual(settings, fields) {
		t.Errorf("extension settings %v, server options %v", settings, fields)
	}
}
