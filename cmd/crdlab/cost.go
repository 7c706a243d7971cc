package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/crdlab/crdlab/cost"
	"github.com/crdlab/crdlab/engine/crd"
)

const costUsage = `usage: crdlab cost [-o text|json] CRD [OBJECT...]

Lists the static CEL cost of every x-kubernetes-validations rule and
messageExpression of CRD (cost, cardinality, share of the per-expression
limit of 10,000,000, the schema total against 100,000,000), the bounds
(maxItems, maxProperties, maxLength) that would bring an expression over
budget under, and with OBJECTs the runtime cost of each rule on each object
against the per-object budget of 10,000,000.
Exit status: 0 accepted and within budget, 1 rejected or an object over
budget, 2 usage or I/O error.
`

// runCost is `crdlab cost`. Flags may come before or after the files.
func runCost(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlagSet("cost", stderr)
	fs.Usage = func() { fmt.Fprint(stderr, costUsage) }
	output := fs.String("o", "text", "output format: text or json")
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
	if !checkOutput(*output, stderr) {
		return exitUsage
	}
	if len(files) == 0 {
		fmt.Fprint(stderr, "crdlab cost: no CRD given\n\n"+costUsage)
		return exitUsage
	}
	if countStdin(files) > 1 {
		fmt.Fprintln(stderr, "crdlab cost: - (stdin) may be given once")
		return exitUsage
	}
	data, err := readFile(files[0], stdin)
	if err != nil {
		fmt.Fprintf(stderr, "crdlab: %v\n", err)
		return exitUsage
	}
	defs, err := crd.Decode(data, files[0])
	if err != nil {
		fmt.Fprintf(stderr, "crdlab: %v\n", err)
		return exitUsage
	}
	if len(defs) != 1 {
		fmt.Fprintf(stderr, "crdlab: %s: expected exactly one CustomResourceDefinition, found %d\n", files[0], len(defs))
		return exitUsage
	}
	var objects [][]byte
	if len(files) > 1 {
		docs, err := readInputs(files[1:], stdin)
		if err != nil {
			fmt.Fprintf(stderr, "crdlab: %v\n", err)
			return exitUsage
		}
		for _, d := range skipCRDs(docs) {
			objects = append(objects, d.data)
		}
	}
	rep, err := cost.Analyze(defs[0], objects...)
	if err != nil {
		fmt.Fprintf(stderr, "crdlab: %v\n", err)
		return exitUsage
	}
	if *output == "json" {
		if err := writeJSON(stdout, rep); err != nil {
			fmt.Fprintf(stderr, "crdlab: %v\n", err)
			return exitUsage
		}
	} else {
		fmt.Fprint(stdout, rep.Text())
	}
	status := exitValid
	if !rep.Accepted {
		status = exitInvalid
	}
	for _, o := range rep.Objects {
		if o.OverBudget {
			status = exitInvalid
		}
	}
	return status
}

func countStdin(files []string) int {
	n := 0
	for _, f := range files {
		if strings.TrimSpace(f) == "-" {
			n++
		}
	}
	return n
}
