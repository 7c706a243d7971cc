// Command crdlab validates CustomResourceDefinitions and custom resources
// offline, exactly as kube-apiserver 1.37 would (see package
// github.com/crdlab/crdlab/engine).
//
//	crdlab validate [--crd FILE|DIR]... [-R] [-o FORMAT] [--summary] PATH...
//	crdlab lint [-R] [-o FORMAT] CRD...
//	crdlab cost [--crd FILE|DIR]... [-R] [-o text|json|yaml] CRD|DIR... [OBJECT|DIR...]
//	crdlab bench [--crd FILE|DIR]... [-R] [-o text|json|yaml|csv] CRD|DIR... OBJECT|DIR...
//	crdlab schema [--crd FILE|DIR]... [-R] [-o DIR] CRD|DIR...
//	crdlab upgrade [-R] [-o text|json|yaml] OLD_CRD NEW_CRD [STORED_OBJECT|DIR...]
//	crdlab test [--crd FILE|DIR]... [--run REGEX] [-o text|json] [--junit FILE] PATH...
//	crdlab apply --crd CRD [--stored OBJECT] [--manager NAME [--force] [--subresource status]] [-o text|json|yaml] OBJECT|STEPS
//	crdlab help [COMMAND]
//	crdlab version
//
// Inputs are YAML or JSON files, directories (their *.yaml, *.yml and
// *.json files; -R for subdirectories) or "-" for stdin (once);
// multi-document YAML and kind: List are expanded. validate finds each
// object's CRD by apiVersion and kind among the --crd inputs and the CRDs
// of the inputs; objects of other kinds are skipped with a reason. FORMAT
// is text, json, jsonl, junit, tap, github or yaml. Exit status: 0 valid,
// 1 invalid, 2 usage or input error (with file:line).
package main

import (
	"fmt"
	"io"
	"os"
	"strings"
)

const (
	exitValid   = 0
	exitInvalid = 1
	exitUsage   = 2
)

var commands = map[string]*command{}

func init() {
	for _, c := range []*command{validateCommand, lintCommand, costCommand, testCommand, benchCommand, schemaCommand, upgradeCommand, conversionReviewCommand, lspCommand, applyCommand} {
		commands[c.name] = c
	}
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run is the whole CLI, testable: it returns the exit status.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		overview(stderr)
		return exitUsage
	}
	switch args[0] {
	case "version", "--version":
		printVersion(stdout)
		return exitValid
	case "help", "-h", "--help":
		if len(args) > 1 && args[0] == "help" {
			c, ok := commands[args[1]]
			if !ok {
				fmt.Fprintf(stderr, "crdlab help: unknown command %q\n\n", args[1])
				overview(stderr)
				return exitUsage
			}
			c.help(stdout)
			return exitValid
		}
		overview(stdout)
		return exitValid
	}
	c, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "crdlab: unknown command %q\n\n", args[0])
		overview(stderr)
		return exitUsage
	}
	return c.run(c, args[1:], stdin, stdout, stderr)
}

// reportInputError prints an input problem (file:line) and returns 2.
func reportInputError(stderr io.Writer, err error) int {
	fmt.Fprintf(stderr, "crdlab: %s\n", strings.TrimPrefix(err.Error(), "crdlab: "))
	return exitUsage
}
