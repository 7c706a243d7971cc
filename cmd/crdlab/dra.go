package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	flag "github.com/spf13/pflag"

	"github.com/crdlab/crdlab/internal/builtin"
	kcel "github.com/crdlab/crdlab/internal/cel"
	"github.com/crdlab/crdlab/internal/cli/inputs"
	"github.com/crdlab/crdlab/internal/dra"
	"github.com/crdlab/crdlab/internal/kubeversion"
	"github.com/crdlab/crdlab/internal/position"
)

var draCommand = &command{
	name:    "dra",
	summary: "Evaluate Dynamic Resource Allocation selectors against ResourceSlices",
	usage:   `crdlab dra match --slices FILE|DIR [--kube-version V] [-o text|json] CLAIM|CLASS|DIR...`,
	doc: `Evaluate the CEL device selectors of ResourceClaims, ResourceClaimTemplates
and DeviceClasses (resource.k8s.io) against every device of the
ResourceSlices given with --slices, as the scheduler's allocator does:
for each request, its DeviceClass's selectors (when the class is among the
inputs) and then its own, in order, in the environment of
k8s.io/dynamic-resource-allocation/cel at the release asked for. A device
matches when every selector returns true; otherwise the first selector that
returned false, or its runtime error with the scheduler's text (a missing
attribute: "no such key: …"), says why. Each selector evaluated reports its
actual cost (the limit is 1,000,000 per selector); -o json adds each
selector's estimated cost as the API server computes it on create
(estimatedCost, against the same limit). A DeviceClass given
alone is evaluated as a request for it. A firstAvailable request lists
each alternative.

It answers which devices each request can select, not which ones the
allocator would allocate: counts, constraints, admin access and capacity
consumption are not modelled.`,
	example: `  crdlab dra match --slices examples/dra/slices examples/dra/class.yaml examples/dra/claim.yaml
  crdlab dra match --slices slices/ -o json claim.yaml`,
	exit: `Exit status: 0 every request matches at least one device, 1 some request
matches none (or a selector fails at runtime), 2 usage or input error
(not a resource.k8s.io object, an unknown version, a selector that does not
compile, with file:line).`,
	flags: func(fs *flag.FlagSet) { declareDRA(fs, &draFlags{}) },
	run:   runDRA,
}

type draFlags struct {
	slices    []string
	output    string
	recursive bool
	kube      kubeVersionFlag
}

func declareDRA(fs *flag.FlagSet, f *draFlags) {
	fs.StringArrayVar(&f.slices, "slices", nil, "ResourceSlices `FILE` or directory (repeatable)")
	fs.StringVarP(&f.output, "output", "o", "text", "output format: text or json")
	fs.BoolVarP(&f.recursive, "recursive", "R", false, "read directories recursively (as kubectl -R)")
	f.kube.declare(fs)
}

// draSelectorRun is one selector evaluated on one device.
type draSelectorRun struct {
	Owner      string  `json:"owner"`
	Index      int     `json:"index"`
	Expression string  `json:"expression"`
	Result     *bool   `json:"result,omitempty"`
	Error      string  `json:"error,omitempty"`
	Cost       *uint64 `json:"cost,omitempty"`
}

// draSelectorCost is a selector's static cost: the API server's estimate
// (new expressions at the release), checked on create against 1,000,000.
type draSelectorCost struct {
	Owner         string  `json:"owner"`
	Index         int     `json:"index"`
	Expression    string  `json:"expression"`
	EstimatedCost *uint64 `json:"estimatedCost,omitempty"`
	// EstimateError: the API server would not compile it as a new
	// expression (an older stored object's selector).
	EstimateError string `json:"estimateError,omitempty"`
	Limit         uint64 `json:"limit"`
}

type draDeviceResult struct {
	Device    string           `json:"device"`
	Slice     string           `json:"slice"`
	Matches   bool             `json:"matches"`
	Reason    string           `json:"reason,omitempty"`
	Selectors []draSelectorRun `json:"selectors"`
}

type draRequestResult struct {
	Object          string            `json:"object"`
	Source          string            `json:"source"`
	Request         string            `json:"request,omitempty"`
	Path            string            `json:"path,omitempty"`
	DeviceClassName string            `json:"deviceClassName,omitempty"`
	Note            string            `json:"note,omitempty"`
	Selectors       []draSelectorCost `json:"selectors"`
	Matching        int               `json:"matching"`
	Devices         []draDeviceResult `json:"devices"`
}

type draReport struct {
	KubeVersion string             `json:"kubeVersion"`
	Requests    []draRequestResult `json:"requests"`
}

// draDoc is a decoded input with where it came from.
type draDoc struct {
	doc inputs.Document
	obj *dra.Object
}

// draSelector is a compiled selector with its owner's name for messages.
type draSelector struct {
	owner string // "class NAME" or "claim NS/NAME", as the allocator's errors
	index int
	sel   *dra.Selector
	cost  draSelectorCost
}

func runDRA(c *command, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags(c)
	var f draFlags
	declareDRA(fs, &f)
	if code := parseFlags(c, fs, args, stdout, stderr); code >= 0 {
		return code
	}
	rest := fs.Args()
	if len(rest) == 0 || rest[0] != "match" {
		return usageError(c, stderr, "expected the subcommand match")
	}
	rest = rest[1:]
	if err := f.kube.check(); err != nil {
		return usageError(c, stderr, "%v", err)
	}
	if len(f.kube.versions) != 1 {
		return usageError(c, stderr, "--kube-version: one release, not %s", f.kube.asked)
	}
	if f.output != "text" && f.output != "json" {
		return usageError(c, stderr, "--output: text or json, not %s", f.output)
	}
	if len(f.slices) == 0 {
		return usageError(c, stderr, "no --slices given")
	}
	if len(rest) == 0 {
		return usageError(c, stderr, "no ResourceClaim, ResourceClaimTemplate or DeviceClass given")
	}
	rel, err := kubeversion.Parse(f.kube.version)
	if err != nil {
		return usageError(c, stderr, "--kube-version: %v", err)
	}
	env, err := dra.NewEnv(rel, kcel.StoredExpressions, dra.Defaults(rel))
	if err != nil {
		return reportInputError(stderr, err)
	}
	newEnv, err := dra.NewEnv(rel, kcel.NewExpressions, dra.Defaults(rel))
	if err != nil {
		return reportInputError(stderr, err)
	}
	read := func(paths []string, role string, want func(kind string) bool) ([]draDoc, error) {
		docs, _, err := (&inputs.Reader{Recursive: f.recursive, Stdin: stdin}).ReadManifests(paths, role)
		if err != nil {
			return nil, err
		}
		var out []draDoc
		for _, d := range docs {
			o, err := draDecode(rel, d)
			if err != nil {
				return nil, err
			}
			if !want(o.Kind) {
				return nil, fmt.Errorf("%s: %s %q: expected %s", d.Where(), o.Kind, o.Name, role)
			}
			out = append(out, draDoc{d, o})
		}
		return out, nil
	}
	slices, err := read(f.slices, "ResourceSlices", func(k string) bool { return k == "ResourceSlice" })
	if err != nil {
		return reportInputError(stderr, err)
	}
	objs, err := read(rest, "ResourceClaims, ResourceClaimTemplates or DeviceClasses", func(k string) bool { return k != "ResourceSlice" })
	if err != nil {
		return reportInputError(stderr, err)
	}
	// device is the allocator's input: the stable allocator (the one
	// picked while DRAConsumableCapacity is off, before 1.36) leaves
	// allowMultipleAllocations out, so it reads false.
	consumable := dra.Defaults(rel).ConsumableCapacity
	device := func(o *dra.Object, i int) dra.Device {
		d := o.Device(i)
		if !consumable {
			d.AllowMultipleAllocations = nil
		}
		return d
	}
	classes := map[string]draDoc{}
	for _, o := range objs {
		if o.obj.Kind == "DeviceClass" {
			classes[o.obj.Name] = o
		}
	}
	rep := draReport{KubeVersion: rel.String()}
	compile := func(d draDoc, owner, path string, sels []dra.DeviceSelector) ([]draSelector, error) {
		var out []draSelector
		for i, s := range sels {
			p := fmt.Sprintf("%s.selectors[%d]", path, i)
			if s.CEL == nil {
				return nil, fmt.Errorf("%s: %s: cel: Required value", draWhere(d, p), p)
			}
			sel, cerr := env.Compile(s.CEL.Expression)
			if cerr != nil {
				return nil, fmt.Errorf("%s: %s: selector #%d: CEL compile error: %s", draWhere(d, p+".cel.expression"), owner, i, cerr.Detail)
			}
			cost := draSelectorCost{Owner: owner, Index: i, Expression: s.CEL.Expression, Limit: dra.MaxCost}
			if created, cerr := newEnv.Compile(s.CEL.Expression); cerr != nil {
				cost.EstimateError = cerr.Detail
			} else {
				cost.EstimatedCost = &created.MaxCost
			}
			out = append(out, draSelector{owner: owner, index: i, sel: sel, cost: cost})
		}
		return out, nil
	}
	failed := false
	for _, o := range objs {
		type req struct {
			name, path, class string
			sels              []dra.DeviceSelector
		}
		var reqs []req
		owner := "claim " + o.obj.Namespace + "/" + o.obj.Name
		if o.obj.Namespace == "" {
			owner = "claim " + o.obj.Name
		}
		if o.obj.Kind == "DeviceClass" {
			reqs = append(reqs, req{class: o.obj.Name})
		}
		for _, r := range o.obj.Requests {
			if len(r.FirstAvailable) == 0 {
				reqs = append(reqs, req{r.Name, r.Path, r.DeviceClassName, r.Selectors})
			}
			for _, s := range r.FirstAvailable {
				reqs = append(reqs, req{s.Name, s.Path, s.DeviceClassName, s.Selectors})
			}
		}
		for _, r := range reqs {
			res := draRequestResult{Object: o.obj.Kind + " " + strings.TrimPrefix(o.obj.Namespace+"/"+o.obj.Name, "/"),
				Source: o.doc.Where(), Request: r.name, Path: r.path, DeviceClassName: r.class, Devices: []draDeviceResult{}}
			var sels []draSelector
			if cl, ok := classes[r.class]; ok {
				cs, err := compile(cl, "class "+cl.obj.Name, "spec", cl.obj.ClassSelectors)
				if err != nil {
					return reportInputError(stderr, err)
				}
				sels = append(sels, cs...)
			} else if r.class != "" {
				res.Note = fmt.Sprintf("DeviceClass %s is not among the inputs: its selectors are not evaluated", r.class)
			}
			rs, err := compile(o, owner, r.path, r.sels)
			if err != nil {
				return reportInputError(stderr, err)
			}
			sels = append(sels, rs...)
			res.Selectors = []draSelectorCost{}
			for _, sel := range sels {
				res.Selectors = append(res.Selectors, sel.cost)
			}
			for _, s := range slices {
				for i, dev := range s.obj.Devices {
					id := s.obj.Driver + "/" + s.obj.Pool + "/" + dev.Name
					dr := draDeviceResult{Device: id, Slice: s.obj.Name, Matches: true, Selectors: []draSelectorRun{}}
					for _, sel := range sels {
						out := sel.sel.Matches(context.Background(), device(s.obj, i))
						run := draSelectorRun{Owner: sel.owner, Index: sel.index, Expression: sel.sel.Expression, Cost: out.Cost}
						dr.Selectors = append(dr.Selectors, run)
						last := &dr.Selectors[len(dr.Selectors)-1]
						if out.Err != nil {
							last.Error = out.Err.Error()
							dr.Matches = false
							dr.Reason = fmt.Sprintf("%s: selector #%d on device %s: CEL runtime error: %v", sel.owner, sel.index, id, out.Err)
							failed = true
							break
						}
						m := out.Matches
						last.Result = &m
						if !m {
							dr.Matches = false
							dr.Reason = fmt.Sprintf("%s: selector #%d returned false", sel.owner, sel.index)
							break
						}
					}
					if dr.Matches {
						res.Matching++
					}
					res.Devices = append(res.Devices, dr)
				}
			}
			if res.Matching == 0 {
				failed = true
			}
			rep.Requests = append(rep.Requests, res)
		}
	}
	if f.output == "json" {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(rep); err != nil {
			return reportInputError(stderr, err)
		}
	} else {
		writeDRAText(stdout, rep)
	}
	if failed {
		return exitInvalid
	}
	return exitValid
}

// draDecode decodes one input document, refusing kinds and versions the
// release does not serve.
func draDecode(rel kubeversion.Release, d inputs.Document) (*dra.Object, error) {
	if !strings.HasPrefix(d.APIVersion, "resource.k8s.io/") {
		return nil, fmt.Errorf("%s: %s %s %q: not a resource.k8s.io object (expected a ResourceSlice, ResourceClaim, ResourceClaimTemplate or DeviceClass)", d.Where(), d.APIVersion, d.Kind, d.Name)
	}
	o, err := dra.Decode(d.Data)
	if err != nil {
		return nil, fmt.Errorf("%s: %s %q: %v", d.Where(), d.Kind, d.Name, err)
	}
	if builtin.Lookup(rel, d.APIVersion, d.Kind) == nil {
		return nil, fmt.Errorf("%s: %s %s is not served by Kubernetes %s (by default)", d.Where(), d.APIVersion, d.Kind, rel)
	}
	return o, nil
}

// draWhere is file:line of a field of a document (the document's start
// when the field cannot be found).
func draWhere(d draDoc, path string) string {
	if d.doc.Raw != nil {
		if p, ok := position.Parse(d.doc.Raw).Find(path); ok {
			return d.doc.File + ":" + strconv.Itoa(d.doc.RawLine+p.Line-1)
		}
	}
	return d.doc.Where()
}

func writeDRAText(w io.Writer, rep draReport) {
	for i, r := range rep.Requests {
		if i > 0 {
			fmt.Fprintln(w)
		}
		name := r.Object
		if r.Request != "" {
			name += ", request " + r.Request
		}
		if r.DeviceClassName != "" && r.Request != "" {
			name += " (class " + r.DeviceClassName + ")"
		}
		fmt.Fprintf(w, "%s: %d of %d devices match (%s)\n", name, r.Matching, len(r.Devices), r.Source)
		if r.Note != "" {
			fmt.Fprintf(w, "  note: %s\n", r.Note)
		}
		for _, d := range r.Devices {
			var costs []string
			for _, s := range d.Selectors {
				c := "-"
				if s.Cost != nil {
					c = strconv.FormatUint(*s.Cost, 10)
				}
				costs = append(costs, fmt.Sprintf("%s #%d: %s", strings.SplitN(s.Owner, " ", 2)[0], s.Index, c))
			}
			mark, why := "match   ", ""
			if !d.Matches {
				mark, why = "no match", ": "+d.Reason
			}
			fmt.Fprintf(w, "  %s %s%s\n", mark, d.Device, why)
			if len(costs) > 0 {
				fmt.Fprintf(w, "           cost %s\n", strings.Join(costs, ", "))
			}
		}
	}
}
