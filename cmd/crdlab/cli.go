package main

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/crdlab/crdlab/internal/cli/inputs"
	"github.com/crdlab/crdlab/internal/keys"
	"github.com/crdlab/crdlab/internal/limits"
	flag "github.com/spf13/pflag"
)

// command is one subcommand: its help and its implementation.
type command struct {
	name    string
	summary string // one line, for `crdlab help`
	usage   string // the synopsis lines
	doc     string // what it does
	example string // examples, indented by two spaces
	run     func(c *command, args []string, stdin io.Reader, stdout, stderr io.Writer) int
	flags   func(fs *flag.FlagSet) // declares the flags, for help
	exit    string                 // the meaning of the exit status, when not validate's
	step    *matrixStep            // set in each release's run of a --kube-version matrix
}

// help is `crdlab help CMD` and `crdlab CMD --help`: description, flags,
// examples.
func (c *command) help(w io.Writer) {
	fs := newFlags(c)
	if c.flags != nil {
		c.flags(fs)
	}
	fmt.Fprintf(w, "%s\n\nUsage:\n%s\n", strings.TrimSpace(c.doc), indentLines(strings.TrimSpace(c.usage), "  "))
	if u := fs.FlagUsages(); u != "" {
		fmt.Fprintf(w, "\nFlags:\n%s", u)
	}
	if c.example != "" {
		fmt.Fprintf(w, "\nExamples:\n%s\n", strings.TrimRight(c.example, "\n"))
	}
	exit := c.exit
	if exit == "" {
		exit = "Exit status: 0 valid, 1 invalid, 2 usage or input error (unreadable or unparseable input, with file:line)."
	}
	fmt.Fprintf(w, "\n%s\n", exit)
}

func indentLines(s, p string) string {
	return p + strings.ReplaceAll(s, "\n", "\n"+p)
}

// newFlags returns a flag set for a command: GNU-style flags anywhere
// (--flag=value, --flag value, -o json), errors returned, not printed.
func newFlags(c *command) *flag.FlagSet {
	fs := flag.NewFlagSet("crdlab "+c.name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.SortFlags = true
	return fs
}

// parseFlags parses args. It returns -1 to go on, or the exit status:
// 0 after printing the help for --help/-h, 2 after a usage error.
func parseFlags(c *command, fs *flag.FlagSet, args []string, stdout, stderr io.Writer) int {
	err := fs.Parse(legacyLongFlags(fs, args))
	if errors.Is(err, flag.ErrHelp) {
		c.help(stdout)
		return exitValid
	}
	if err != nil {
		return usageError(c, stderr, "%v", err)
	}
	if err := wasmDefaultTimeout(fs); err != nil {
		return usageError(c, stderr, "%v", err)
	}
	return -1
}

// usageError prints "crdlab CMD: msg" and where to find help; it returns 2.
func usageError(c *command, stderr io.Writer, format string, a ...interface{}) int {
	fmt.Fprintf(stderr, "crdlab %s: %s\nSee 'crdlab help %s'.\n", c.name, fmt.Sprintf(format, a...), c.name)
	return exitUsage
}

// legacyLongFlags keeps the single-dash long flags of earlier versions
// working (-crd FILE, -run REGEX, -field-validation=Warn): a "-name" whose
// name is a long flag of fs becomes "--name". Arguments after "--" are
// left alone.
func legacyLongFlags(fs *flag.FlagSet, args []string) []string {
	out := make([]string, 0, len(args))
	for i, a := range args {
		if a == "--" {
			return append(out, args[i:]...)
		}
		if len(a) > 2 && a[0] == '-' && a[1] != '-' {
			name, _, _ := strings.Cut(a[1:], "=")
			if len(name) > 1 && fs.Lookup(name) != nil {
				a = "-" + a
			}
		}
		out = append(out, a)
	}
	return out
}

// enum returns the allowed value equal to v ignoring case (as kubectl's
// enum flags), or an error listing them.
func enum(flagName, v string, allowed ...string) (string, error) {
	for _, a := range allowed {
		if strings.EqualFold(v, a) {
			return a, nil
		}
	}
	return "", fmt.Errorf("--%s must be %s, not %q", flagName, orList(allowed), v)
}

func orList(s []string) string {
	if len(s) == 1 {
		return s[0]
	}
	return strings.Join(s[:len(s)-1], ", ") + " or " + s[len(s)-1]
}

// overview is `crdlab help` and `crdlab --help`.
func overview(w io.Writer) {
	fmt.Fprint(w, `crdlab validates CustomResourceDefinitions and custom resources offline,
as kube-apiserver 1.37 does.

Usage:
  crdlab COMMAND [flags] [args]

Commands:
`)
	names := keys.Sorted(commands)
	width := len("version")
	for _, n := range names {
		width = max(width, len(n))
	}
	for _, n := range names {
		fmt.Fprintf(w, "  %-*s  %s\n", width, n, commands[n].summary)
	}
	fmt.Fprintf(w, "  %-*s  Print the version\n", width, "version")
	fmt.Fprint(w, `
Flags may come anywhere, as --flag=value or --flag value.
Inputs are YAML or JSON files, directories (their *.yaml, *.yml and *.json
files; -R for subdirectories) or - (stdin, once).
Run 'crdlab help COMMAND' (or 'crdlab COMMAND --help') for a command's flags and examples.
Exit status: 0 valid, 1 invalid, 2 usage or input error.
`)
}

// stdinOnce checks that "-" (stdin) is given once at most, whatever the
// roles of the inputs (e.g. --crd - and an object -).
func stdinOnce(c *command, stderr io.Writer, lists ...[]string) int {
	n := 0
	for _, l := range lists {
		for _, a := range l {
			if a == "-" {
				n++
			}
		}
	}
	if n > 1 {
		return usageError(c, stderr, "- (stdin) is given %d times: it can be read only once", n)
	}
	return -1
}

// holdsCRD reports whether a CRD input named file (a file or a directory)
// is among docs.
func holdsCRD(docs []inputs.Document, file string) bool {
	for _, d := range docs {
		if d.File == file || strings.HasPrefix(d.File, strings.TrimSuffix(file, "/")+"/") || file == "." {
			return true
		}
	}
	return false
}

// defaultTimeout is --timeout's default: the API server's request timeout
// (60 s). --runtime wasm gets wasmTimeoutFactor times it (runtimes.go).
const defaultTimeout = limits.RequestTimeoutSeconds * time.Second
