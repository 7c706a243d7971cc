package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/crdlab/crdlab/engine"
	"github.com/crdlab/crdlab/engine/crd"
	"github.com/crdlab/crdlab/jsonschema"
)

const schemaUsage = `usage: crdlab schema [--draft 2020-12|07] [--strict] [-o DIR [--layout kubeconform|catalog]] CRD...

Writes the JSON Schema of every served version of each CRD, for editors
(yaml-language-server, VS Code) and schema-only validators (kubeconform).
Without -o, the single schema is written to stdout. With -o DIR, one file
per version: DIR/{kind}_{version}.json in lower case (kubeconform's layout,
for -schema-location 'DIR/{{.ResourceKind}}_{{.ResourceAPIVersion}}.json'),
or DIR/{group}/{kind}_{version}.json with --layout catalog (CRDs-catalog).

--strict adds additionalProperties: false where kube-apiserver prunes
unknown fields, i.e. it models --field-validation=Strict.
What JSON Schema cannot express (CEL rules, list-map keys, some formats,
ObjectMeta rules, ratcheting) is listed in each schema's description.
Exit status: 0 written, 1 a CRD is invalid (nothing written for it),
2 usage or I/O error.

Flags:
`

// runSchema is `crdlab schema`. Flags may come before or after the files.
func runSchema(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlagSet("schema", stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, schemaUsage)
		fs.PrintDefaults()
	}
	draftFlag := fs.String("draft", "2020-12", "JSON Schema `draft`: 2020-12 or 07")
	strict := fs.Bool("strict", false, "reject unknown fields (additionalProperties: false where the API server prunes)")
	outDir := fs.String("o", "", "output `DIR` (default: stdout, for exactly one schema)")
	layout := fs.String("layout", "kubeconform", "file layout under -o: kubeconform ({kind}_{version}.json) or catalog ({group}/{kind}_{version}.json)")
	var files []string
	for {
		if err := fs.Parse(args); err != nil {
			return exitUsage
		}
		if fs.NArg() == 0 {
			break
		}
		files = append(files, fs.Arg(0))
		args = fs.Args()[1:]
	}
	draft, err := jsonschema.ParseDraft(*draftFlag)
	if err != nil {
		fmt.Fprintf(stderr, "crdlab schema: --draft: %v\n", err)
		return exitUsage
	}
	if *layout != string(jsonschema.LayoutKubeconform) && *layout != string(jsonschema.LayoutCatalog) {
		fmt.Fprintf(stderr, "crdlab schema: --layout must be kubeconform or catalog, not %q\n", *layout)
		return exitUsage
	}
	if len(files) == 0 {
		fmt.Fprint(stderr, "crdlab schema: no CRDs given (files, directories or -)\n\n")
		fs.Usage()
		return exitUsage
	}
	docs, err := readInputs(files, stdin)
	if err != nil {
		fmt.Fprintf(stderr, "crdlab: %v\n", err)
		return exitUsage
	}
	docs = onlyCRDs(docs)
	if len(docs) == 0 {
		fmt.Fprintln(stderr, "crdlab schema: no CustomResourceDefinitions found in the inputs")
		return exitUsage
	}
	status := exitValid
	var schemas []jsonschema.Schema
	for _, d := range docs {
		def, err := crd.DecodeOne(d.data, d.source)
		if err != nil {
			fmt.Fprintf(stderr, "crdlab: %s\n", relocate(err, d))
			return exitUsage
		}
		compiled := engine.CompileCRDWithSource(def, d.data)
		if len(compiled.Errors()) > 0 {
			status = exitInvalid
			printCRD(compiled, docOrigin(d), stdout, stderr)
			continue
		}
		out, err := jsonschema.Convert(def, jsonschema.Options{Draft: draft, Strict: *strict})
		if err != nil {
			fmt.Fprintf(stderr, "crdlab: %s: %v\n", d.where(), err)
			return exitUsage
		}
		schemas = append(schemas, out...)
	}
	if *outDir == "" {
		if len(schemas) > 1 {
			fmt.Fprintf(stderr, "crdlab schema: %d schemas (one per served version): use -o DIR\n", len(schemas))
			return exitUsage
		}
		for i := range schemas {
			b, err := schemas[i].JSON()
			if err != nil {
				fmt.Fprintf(stderr, "crdlab: %v\n", err)
				return exitUsage
			}
			if _, err := stdout.Write(b); err != nil {
				return exitUsage
			}
		}
		return status
	}
	seen := map[string]bool{}
	for i := range schemas {
		name := filepath.Join(*outDir, filepath.FromSlash(schemas[i].FileName(jsonschema.Layout(*layout))))
		if seen[name] {
			fmt.Fprintf(stderr, "crdlab schema: %s: two CRDs give the same file (same kind and version); use --layout catalog\n", name)
			return exitUsage
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
			fmt.Fprintf(stderr, "crdlab: %v\n", err)
			return exitUsage
		}
		fmt.Fprintln(stdout, name)
	}
	return status
}
