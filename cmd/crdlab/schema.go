package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	flag "github.com/spf13/pflag"

	"github.com/crdlab/crdlab/internal/cli/inputs"
	"github.com/crdlab/crdlab/jsonschema"
)

var schemaCommand = &command{
	name:    "schema",
	summary: "Export CRD schemas as JSON Schema (for editors, kubeconform)",
	usage:   `crdlab schema [--crd FILE|DIR]... [-R] [--draft 2020-12|07] [--strict] [-o DIR [--layout kubeconform|catalog]] [CRD|DIR...]`,
	doc: `Write the JSON Schema of every served version of each CRD, for editors
(yaml-language-server, VS Code) and schema-only validators (kubeconform).
The CRDs are those of the inputs and of --crd (other documents are ignored).
Without -o, the single schema is written to stdout. With -o DIR, one file
per version: DIR/{kind}_{version}.json in lower case (kubeconform's layout,
for -schema-location 'DIR/{{.ResourceKind}}_{{.ResourceAPIVersion}}.json'),
or DIR/{group}/{kind}_{version}.json with --layout catalog (CRDs-catalog).

--strict adds additionalProperties: false where kube-apiserver prunes
unknown fields, i.e. it models --field-validation=Strict.
What JSON Schema cannot express (CEL rules, list-map keys, some formats,
ObjectMeta rules, ratcheting) is listed in each schema's description.`,
	example: `  crdlab schema config/crd/widgets.yaml > widget.json
  crdlab schema --strict -o schemas/ -R config/crd/

  # For kubeconform
  crdlab schema -o schemas/ config/crd/
  kubeconform -schema-location default -schema-location 'schemas/{{.ResourceKind}}_{{.ResourceAPIVersion}}.json' manifests/`,
	exit: `Exit status: 0 written, 1 a CRD is invalid (nothing written for it), 2 usage
or input error (unreadable or unparseable input, with file:line).`,
	flags: func(fs *flag.FlagSet) { declareSchema(fs, &schemaFlags{}) },
	run:   runSchema,
}

type schemaFlags struct {
	runtimeFlags
	crds          []string
	recursive     bool
	draft, layout string
	outDir        string
	strict        bool
}

func declareSchema(fs *flag.FlagSet, f *schemaFlags) {
	fs.StringArrayVar(&f.crds, "crd", nil, "a CustomResourceDefinition `FILE` or directory (repeatable; - for stdin)")
	fs.BoolVarP(&f.recursive, "recursive", "R", false, "read directories recursively (as kubectl -R)")
	fs.StringVar(&f.draft, "draft", "2020-12", "the JSON Schema `DRAFT`: 2020-12 or 07")
	fs.BoolVar(&f.strict, "strict", false, "reject unknown fields (additionalProperties: false where the API server prunes)")
	fs.StringVarP(&f.outDir, "output-dir", "o", "", "output `DIR` (default: stdout, for exactly one schema)")
	fs.StringVar(&f.layout, "layout", "kubeconform", "file layout under -o: kubeconform ({kind}_{version}.json) or catalog ({group}/{kind}_{version}.json)")
	f.runtimeFlags.declare(fs)
}

// runSchema is `crdlab schema`.
func runSchema(c *command, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags(c)
	var f schemaFlags
	declareSchema(fs, &f)
	if code := parseFlags(c, fs, args, stdout, stderr); code >= 0 {
		return code
	}
	draft, err := jsonschema.ParseDraft(f.draft)
	if err != nil {
		return usageError(c, stderr, "--draft: %v", err)
	}
	layout, err := enum("layout", f.layout, string(jsonschema.LayoutKubeconform), string(jsonschema.LayoutCatalog))
	if err != nil {
		return usageError(c, stderr, "%v", err)
	}
	if err := f.runtimeFlags.check(); err != nil {
		return usageError(c, stderr, "%v", err)
	}
	if looksLikeFormat(f.outDir) {
		return usageError(c, stderr, "-o names the output directory (--output-dir): schema writes JSON Schema only, to stdout without -o; for a directory named %q, give ./%s", f.outDir, f.outDir)
	}
	paths := append(append([]string(nil), f.crds...), fs.Args()...)
	if len(paths) == 0 {
		return usageError(c, stderr, "no CRDs given (files, directories or -)")
	}
	if code := stdinOnce(c, stderr, paths); code >= 0 {
		return code
	}
	defer closeEngine()
	export, err := pickRuntime[schemaFunc](f.runtimeFlags, nativeSchema, wasmSchema)
	if err != nil {
		return runtimeError(c, stderr, err)
	}
	all, skipped, err := (&inputs.Reader{Recursive: f.recursive, Stdin: stdin}).ReadManifests(paths, "CRDs")
	if err != nil {
		return reportInputError(stderr, err)
	}
	for _, s := range skipped {
		fmt.Fprintf(stderr, "note: %s\n", s)
	}
	var docs []inputs.Document
	for _, d := range all {
		// Documents without a kind are kept, so that their decoding error
		// is reported.
		if d.IsCRD() || d.Kind == "" || d.Kind == "List" {
			docs = append(docs, d)
		}
	}
	if len(docs) == 0 {
		return usageError(c, stderr, "no CustomResourceDefinitions found in the inputs")
	}
	status := exitValid
	var schemas []jsonschema.Schema
	for _, d := range docs {
		def, err := inputs.DecodeCRD(d)
		if err != nil {
			return reportInputError(stderr, err)
		}
		rep, out, err := export(d, def, jsonschema.Options{Draft: draft, Strict: f.strict})
		if err != nil {
			return reportInputError(stderr, fmt.Errorf("%s: %v", where(&d), err))
		}
		if len(rep.Errors) > 0 {
			status = exitInvalid
			printCRDReport(def, rep, docOrigin(d), stdout, stderr)
			continue
		}
		schemas = append(schemas, out...)
	}
	if f.outDir == "" {
		if len(schemas) > 1 {
			return usageError(c, stderr, "%d schemas (one per served version): use -o DIR", len(schemas))
		}
		for i := range schemas {
			b, err := schemas[i].JSON()
			if err != nil {
				return reportInputError(stderr, err)
			}
			if _, err := stdout.Write(b); err != nil {
				return exitUsage
			}
		}
		return status
	}
	seen := map[string]bool{}
	for i := range schemas {
		name := filepath.Join(f.outDir, filepath.FromSlash(schemas[i].FileName(jsonschema.Layout(layout))))
		if seen[name] {
			return usageError(c, stderr, "%s: two CRDs give the same file (same kind and version): use --layout catalog", name)
		}
		seen[name] = true
		b, err := schemas[i].JSON()
		if err == nil {
			err = os.MkdirAll(filepath.Dir(name), 0o755)
		}
		if err == nil {
			err = os.WriteFile(name, b, 0o644)
		}
		if err != nil {
			return reportInputError(stderr, err)
		}
		fmt.Fprintln(stdout, name)
	}
	return status
}

// looksLikeFormat reports whether dir, given to schema's -o, is rather a
// kubectl output format (crdlab schema -o json) than a directory: a format
// name that is not an existing directory.
func looksLikeFormat(dir string) bool {
	switch strings.ToLower(dir) {
	case "json", "yaml", "text", "wide", "name":
		st, err := os.Stat(dir)
		return err != nil || !st.IsDir()
	}
	return false
}
