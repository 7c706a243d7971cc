package main

import (
	"context"
	"io"
	"os"
	"os/signal"

	flag "github.com/spf13/pflag"

	"github.com/crdlab/crdlab/internal/cli/lsp"
)

var lspCommand = &command{
	name:    "lsp",
	summary: "Run the language server (LSP over stdio) for editors",
	usage:   `crdlab lsp [--stdio] [--crd FILE|DIR]... [--kube-version 1.N]`,
	doc: `Run crdlab as a Language Server Protocol server on stdin/stdout, for
editors (VS Code, Neovim, Helix, Emacs: see docs/editors.md).

For the YAML files the editor opens it publishes the API server's verdict
as diagnostics: on CustomResourceDefinitions, decoding and structural
schema errors, CEL compile errors inside the rule's text, rules and
schemas over their cost limits, warnings; on custom resources, the errors
and warnings of a create, against the CRD of their kind found in the
workspace folders (scanned on first use) or under --crd. It completes
fields and functions after self. and oldSelf. in rule and
messageExpression strings, and field names and enum values in custom
resources; hovers show a field's type, constraints and description, and a
rule's static cost; over-budget rules get the cost advisor's bounds
(maxItems, maxLength, maxProperties) as quick fixes. On
ValidatingAdmissionPolicies it reports the compile errors of every
expression (variables, matchConditions, validations and their
messageExpression, auditAnnotations) inside the expression's text, with
the API server's messages.

The diagnostics are those of the release --kube-version names (default
the newest), or of the client's initializationOptions' kubeVersion.

The client's initializationOptions may hold {"crdPaths": [...],
"debounceMs": 100, "scanWorkspace": true, "kubeVersion": "1.36",
"markersCommand": "crdlab-markers"}. With markersCommand, opening or
saving a Go file runs that command (crdlab-markers, from crdlab's markers/
module) on its package and reports the errors of the CRDs generated from
it at their kubebuilder markers (docs/editors.md).`,
	example: `  crdlab lsp
  crdlab lsp --crd config/crd/bases/
  crdlab lsp --kube-version 1.35`,
	exit:  `Exit status: 0 when the client exits (or closes stdin), 2 on a usage error.`,
	flags: func(fs *flag.FlagSet) { declareLSP(fs, &lspFlags{}) },
	run:   runLSP,
}

type lspFlags struct {
	stdio bool
	crds  []string
	kube  kubeVersionFlag
}

func declareLSP(fs *flag.FlagSet, f *lspFlags) {
	fs.BoolVar(&f.stdio, "stdio", true, "talk over stdin and stdout (the only transport; accepted for clients that pass it)")
	fs.StringArrayVar(&f.crds, "crd", nil, "a CustomResourceDefinition `FILE` or directory custom resources are validated against (repeatable)")
	f.kube.declare(fs)
}

func runLSP(c *command, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	var f lspFlags
	fs := newFlags(c)
	declareLSP(fs, &f)
	if code := parseFlags(c, fs, args, stdout, stderr); code >= 0 {
		return code
	}
	if fs.NArg() > 0 {
		return usageError(c, stderr, "unexpected argument %q", fs.Arg(0))
	}
	if err := f.kube.check(); err != nil {
		return usageError(c, stderr, "%v", err)
	}
	srv, err := lsp.NewServer(f.crds...).WithVersion(readBuildVersion().Version).WithKubeVersion(f.kube.version)
	if err != nil {
		return usageError(c, stderr, "--kube-version: %v", err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := srv.Serve(ctx, stdio{stdin, stdout}); err != nil {
		return reportInputError(stderr, err)
	}
	return exitValid
}

// stdio is stdin and stdout as one connection.
type stdio struct {
	io.Reader
	io.Writer
}

func (stdio) Close() error { return nil }
