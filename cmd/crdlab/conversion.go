package main

import (
	"fmt"
	"io"
	"strings"

	flag "github.com/spf13/pflag"
	"sigs.k8s.io/yaml"

	"github.com/crdlab/crdlab/conversion"
	"github.com/crdlab/crdlab/internal/cli/inputs"
)

// This file is `crdlab conversion-review`: a conversion webhook's recorded
// answer checked as the API server checks it (package conversion).

var conversionReviewCommand = &command{
	name:    "conversion-review",
	summary: "Check a conversion webhook's recorded ConversionReview answer",
	usage:   `crdlab conversion-review --crd CRD [-o text|json] [--objects] [--list] [--runtime native|wasm] REQUEST [RESPONSE]`,
	doc: `Check a conversion webhook's answer offline, as kube-apiserver 1.37 does
when it calls the webhook of a CRD with spec.conversion.strategy Webhook.

REQUEST is the ConversionReview the API server sent (its request: uid,
desiredAPIVersion, objects), RESPONSE the one the webhook answered (JSON or
YAML; one file holding both the request and the response may be given
alone). The verdict is the API server's: the answer's decoding into the
request's ConversionReview version, response.uid (v1), response.result,
the number of convertedObjects, each object's apiVersion and kind, its
name, namespace and uid unchanged, labels and annotations valid (the rest
of metadata is restored from the request's object) — with the API
server's exact error message, which a client gets on a read (HTTP 500,
kubectl "Error from server: ..."). An accepted object is then pruned by the
target version's schema as the storage codec does (the fields dropped are
listed) and, as an extra check the API server does not make on conversion,
validated as a create at the target version.

A request with several objects is a list conversion; --list makes a
single object one too (the errors' wording differs).`,
	example: `  # The webhook's answer, recorded next to the request it got
  crdlab conversion-review --crd examples/conversion/crd.yaml \
    examples/conversion/request.json examples/conversion/response.json

  # The converted objects as the API server uses them, for CI
  crdlab conversion-review --crd crd.yaml -o json request.json response.json`,
	flags: func(fs *flag.FlagSet) { declareConversionReview(fs, &conversionReviewFlags{}) },
	run:   runConversionReview,
}

type conversionReviewFlags struct {
	runtimeFlags
	crd            string
	output         string
	objects        bool
	list           bool
	listAPIVersion string
	kube           kubeVersionFlag
}

func declareConversionReview(fs *flag.FlagSet, f *conversionReviewFlags) {
	fs.StringVar(&f.crd, "crd", "", "the CustomResourceDefinition `FILE` (- for stdin)")
	fs.StringVarP(&f.output, "output", "o", "text", "output format: text or json")
	fs.BoolVar(&f.objects, "objects", false, "text: print the converted objects (YAML)")
	fs.BoolVar(&f.list, "list", false, "the objects were converted as one list (always so for several objects)")
	fs.StringVar(&f.listAPIVersion, "list-api-version", "", "the list's apiVersion, which list errors quote (default: the first object's)")
	f.kube.declare(fs)
	f.runtimeFlags.declare(fs)
}

func runConversionReview(c *command, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags(c)
	var f conversionReviewFlags
	declareConversionReview(fs, &f)
	if code := parseFlags(c, fs, args, stdout, stderr); code >= 0 {
		return code
	}
	var err error
	if f.output, err = enum("output", f.output, "text", "json"); err != nil {
		return usageError(c, stderr, "%v", err)
	}
	if err := f.runtimeFlags.check(); err != nil {
		return usageError(c, stderr, "%v", err)
	}
	if err := f.kube.check(); err != nil {
		return usageError(c, stderr, "%v", err)
	}
	if code, done := matrix(c, &f.kube, &f.output, matrixWhole, args, stdin, stdout, stderr); done {
		return code
	}
	if f.crd == "" {
		return usageError(c, stderr, "--crd is required")
	}
	files := fs.Args()
	if len(files) == 0 || len(files) > 2 {
		return usageError(c, stderr, "need REQUEST and RESPONSE (or one file holding both), got %d arguments", len(files))
	}
	reader := &inputs.Reader{Stdin: stdin}
	crdData, err := reader.ReadFile(f.crd, "CRD")
	if err != nil {
		return reportInputError(stderr, err)
	}
	request, err := reader.ReadFile(files[0], "request")
	if err != nil {
		return reportInputError(stderr, err)
	}
	response := request
	if len(files) == 2 {
		if response, err = reader.ReadFile(files[1], "response"); err != nil {
			return reportInputError(stderr, err)
		}
	}
	defer closeEngine()
	check, err := pickRuntime[conversionFunc](f.runtimeFlags, conversion.Check, wasmConversion)
	if err != nil {
		return runtimeError(c, stderr, err)
	}
	res, err := check(crdData, request, response, conversion.Options{List: f.list, ListAPIVersion: f.listAPIVersion, KubeVersion: f.kube.version})
	if err != nil {
		// Every error of the check is an input that cannot be checked
		// (conversion.UsageError; from the module, its DecodeError).
		if strings.HasPrefix(err.Error(), "request: ") {
			err = fmt.Errorf("%s: %s", files[0], strings.TrimPrefix(err.Error(), "request: "))
		} else if strings.HasPrefix(err.Error(), "CRD") {
			err = fmt.Errorf("%s: %s", f.crd, err)
		}
		return reportInputError(stderr, err)
	}
	status := exitValid
	if !res.Valid {
		status = exitInvalid
	}
	if f.output == "json" {
		if err := writeStructured("json", stdout, res); err != nil {
			return exitUsage
		}
		return status
	}
	writeConversionText(stdout, res, f.objects)
	return status
}

// writeConversionText renders the verdict for people.
func writeConversionText(w io.Writer, res *conversion.Result, objects bool) {
	n := len(res.Objects)
	what := "answer"
	if res.List {
		what = "list answer"
	}
	fmt.Fprintf(w, "ConversionReview %s (uid %s) to %s: ", res.ReviewVersion, res.UID, res.DesiredAPIVersion)
	if !res.Accepted {
		fmt.Fprintf(w, "%s REJECTED by the API server\n", what)
		fmt.Fprint(w, indent("Error from server: "+res.Error, "  "))
		return
	}
	fmt.Fprintf(w, "%s accepted by the API server (%d object", what, n)
	if n != 1 {
		fmt.Fprint(w, "s")
	}
	fmt.Fprintln(w, ")")
	for _, o := range res.Objects {
		name := o.Name
		if o.Namespace != "" {
			name = o.Namespace + "/" + name
		}
		verdict := "valid"
		if len(o.Errors) > 0 {
			verdict = "INVALID"
		}
		fmt.Fprintf(w, "  [%d] %s: %s at %s\n", o.Index, name, verdict, res.DesiredAPIVersion)
		if len(o.Pruned) > 0 {
			fmt.Fprintf(w, "      pruned by the %s schema: %s\n", res.DesiredAPIVersion, strings.Join(o.Pruned, ", "))
		}
		if o.Invalid != "" {
			fmt.Fprint(w, indent("a create at "+res.DesiredAPIVersion+" fails: "+o.Invalid, "      "))
		}
		for _, warn := range o.Warnings {
			fmt.Fprintf(w, "      Warning: %s\n", warn)
		}
		if objects {
			if y, err := yaml.Marshal(o.Object); err == nil {
				fmt.Fprint(w, indent(string(y), "      "))
			}
		}
	}
}
