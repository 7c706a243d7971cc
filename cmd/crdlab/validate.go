package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"reflect"
	"regexp"
	"strings"
	"time"

	flag "github.com/spf13/pflag"

	"github.com/crdlab/crdlab/admission"
	"github.com/crdlab/crdlab/engine"
	"github.com/crdlab/crdlab/engine/crd"
	"github.com/crdlab/crdlab/internal/cli/inputs"
	"github.com/crdlab/crdlab/internal/cli/report"
	"github.com/crdlab/crdlab/internal/kubeversion"
	"github.com/crdlab/crdlab/wire"
)

var validateCommand = &command{
	name:    "validate",
	summary: "Validate objects against their CRDs as kube-apiserver would",
	usage: `crdlab validate [--crd FILE|DIR]... [-R] [-o FORMAT] [--summary] [--missing-crds skip|error] [--kinds K,...] [--skip-kinds K,...] [--unmodelled pass|fail] PATH...
crdlab validate --crd FILE --old FILE [--subresource status] OBJECT
crdlab validate [--policy FILE|DIR]... [--request FILE] [--operation OP] [--user NAME] [--group G]... PATH...`,
	doc: `Validate objects as kube-apiserver 1.37 would on a server-side dry run
(kubectl apply --dry-run=server): decoding, pruning, defaulting, OpenAPI
schema and CEL validation, the same errors and warnings.

Each object is validated against its own CustomResourceDefinition, found
by apiVersion and kind among the --crd files and directories and the CRDs
among the inputs (which are linted too). Objects of Kubernetes' built-in
kinds need no CRD (docs/builtin-kinds.md): ConfigMap, Secret, Namespace,
ServiceAccount, RBAC, Lease, PodDisruptionBudget, StorageClass,
NetworkPolicy, PriorityClass and IngressClass are validated exactly,
Deployment, ReplicaSet, DaemonSet and Job with the part of pod-template
validation crdlab models (status "partial" naming the fields it does not
model, if the template sets any); other kinds the release serves
are decoded by its OpenAPI schema only (the API server's decode errors;
status "partial" when they decode, not validated natively; --unmodelled
fail makes them fail the run); versions it does not serve get kubectl's
"resource mapping not found" error. --kinds and --skip-kinds choose the
kinds validated, --builtins=false skips every built-in object. Objects of
custom kinds whose CRD is not given are skipped with a reason;
--missing-crds=error makes them fail the run. Documents are validated in parallel (-j), the
output is in input order; each error and warning is located at the
file:line:col of the field it names.

A CRD or object document over 3 MiB is rejected as the API server rejects
the request body ("Request entity too large: limit is 3145728"); each
object's validation is bounded by --timeout.

Validating admission policies (ValidatingAdmissionPolicy and
ValidatingAdmissionPolicyBinding, admissionregistration.k8s.io/v1) given
with --policy or found among the inputs then run on each object that
passes validation, as the API server's admission chain would: a denial
makes the object invalid with the API server's message, Warn actions add
warnings, and -o json entries carry the outcome ("admission": policy,
binding, message, warnings, audit annotations). Params and Namespaces are
looked up among the --policy files and the inputs. The request is a CREATE
(an UPDATE with --old) by kubernetes-admin (groups system:masters,
system:authenticated); --request takes operation, subResource, userInfo,
dryRun and options from an AdmissionReview, --operation, --user and
--group override them. A policy or binding the API server would refuse to
create is an input error (exit 2) with its file:line and the API server's
message.

ValidatingWebhookConfigurations and MutatingWebhookConfigurations given the
same way say which webhooks each request would be sent to, as the API
server decides it (rules, scope, namespace and object selectors,
matchPolicy Equivalent, matchConditions): a "webhooks:" line per object in
text output, a "webhooks" array on -o json entries. The webhooks are not
called; a matchConditions error under failurePolicy Fail fails the request
with the API server's error. --webhook-response WEBHOOK=FILE gives a
webhook's recorded AdmissionReview answer, applied as the API server
applies it: a mutating webhook's JSONPatch changes the object validated, a
denial or an unusable answer (under failurePolicy Fail) fails the request
with the API server's error, warnings are added.

Mutating admission policies (MutatingAdmissionPolicy and its binding)
given the same way run first, before the validation, and change the object
validated; -o json entries carry the mutated object and the mutations run
("mutation"). Policies run on objects of built-in kinds too, in the API
server's order: the object decoded and defaulted, the mutating policies,
the kind's native validation, the validating policies (for kinds checked
against the API surface only, on the object as written). Versions
v1alpha1 and v1beta1 of the policy kinds are read where the release serves
them with --runtime-config (as kube-apiserver's); before 1.36 mutating
policies run only with --feature-gates MutatingAdmissionPolicy=true. See
docs/validating-policies.md, docs/mutating-policies.md and
docs/webhooks.md.`,
	example: `  # A GitOps repository: CRDs in one directory, manifests of every kind in another
  crdlab validate --crd crds/ -R manifests/

  # Built-in kinds only (no CRD), failing on kinds checked only in part
  crdlab validate --unmodelled fail -R manifests/

  # GitHub Actions annotations, with the counts
  crdlab validate --crd crds/ -R . -o github --summary

  # One object, an update of the stored one
  crdlab validate --crd crontab-crd.yaml --old stored.yaml new.yaml

  # From stdin
  kustomize build overlays/prod | crdlab validate --crd crds/ -

  # With the cluster's admission policies, as a non-admin user
  crdlab validate --crd crds/ --policy policies/ --user jane --group devs manifests/

  # Which of the cluster's admission webhooks each object would be sent to
  crdlab validate --crd crds/ --policy webhooks.yaml manifests/

  # With a webhook's recorded answer (an AdmissionReview with a response)
  crdlab validate --crd crds/ --policy webhooks.yaml --webhook-response images.example.com=answer.yaml manifests/

  # As a Kubernetes 1.36 API server validates them
  crdlab validate --kube-version 1.36 --crd crds/ -R manifests/

  # As every supported release does, grouped by identical verdicts
  crdlab validate --kube-version supported --crd crds/ -R manifests/`,
	flags: func(fs *flag.FlagSet) { declareValidate(fs, &validateFlags{}) },
	run:   runValidate,
}

// subresourceName is what --subresource takes: a subresource's name.
var subresourceName = regexp.MustCompile(`^[a-z]+$`)

type validateFlags struct {
	outputFlags
	crds            []string
	oldCRD          string
	storedVersions  string
	old             string
	version         string
	subresource     string
	fieldValidation string
	missing         string
	timeout         time.Duration
	builtins        bool
	kinds           []string
	skipKinds       []string
	unmodelled      string
	admissionFlags
}

func declareValidate(fs *flag.FlagSet, f *validateFlags) {
	fs.StringArrayVar(&f.crds, "crd", nil, "a CustomResourceDefinition `FILE` or directory (repeatable; - for stdin)")
	fs.StringVar(&f.old, "old", "", "the stored object `FILE`: validate an update instead of a create")
	fs.StringVar(&f.oldCRD, "old-crd", "", "the CRD in the cluster `FILE`: the one --crd is an update of it (its verdict is the CRD's)")
	fs.StringVar(&f.storedVersions, "stored-versions", "", "with --old-crd: its status.storedVersions, comma-separated")
	fs.StringVar(&f.version, "version", "", "the served `VERSION` the requests go to (default: each object's apiVersion)")
	fs.StringVar(&f.subresource, "subresource", "", "status: validate a status update (needs --old); the other subresources of built-in resources (scale, ephemeralcontainers, ...) are matched by admission rules naming them")
	fs.StringVar(&f.fieldValidation, "field-validation", "Strict", "Strict, Warn or Ignore (unknown and duplicate fields; any case)")
	fs.StringVar(&f.missing, "missing-crds", "skip", "skip or error: what objects whose kind has no CRD do to the run")
	fs.DurationVar(&f.timeout, "timeout", defaultTimeout, "the time limit of each object's validation (0: none); an object past it is an error"+wasmTimeoutNote)
	fs.BoolVar(&f.builtins, "builtins", true, "validate objects of Kubernetes' built-in kinds (false: skip them)")
	fs.StringSliceVar(&f.kinds, "kinds", nil, "validate only objects of these `KIND`s (Kind or Kind.group, comma-separated); the others are skipped")
	fs.StringSliceVar(&f.skipKinds, "skip-kinds", nil, "skip objects of these `KIND`s (Kind or Kind.group, comma-separated)")
	fs.StringVar(&f.unmodelled, "unmodelled", "pass", "pass or fail: what objects of built-in kinds whose native validation is not modelled (decoded by the release's schema only) do to the run")
	f.admissionFlags.declare(fs)
	f.outputFlags.declare(fs)
}

func runValidate(c *command, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags(c)
	var f validateFlags
	declareValidate(fs, &f)
	if code := parseFlags(c, fs, args, stdout, stderr); code >= 0 {
		return code
	}
	if err := f.check(); err != nil {
		return usageError(c, stderr, "%v", err)
	}
	if code, done := matrix(c, &f.kube, &f.output, matrixRuns, args, stdin, stdout, stderr); done {
		return code
	}
	fv, err := enum("field-validation", f.fieldValidation, "Strict", "Warn", "Ignore")
	if err != nil {
		return usageError(c, stderr, "%v", err)
	}
	if f.timeout < 0 {
		return usageError(c, stderr, "--timeout must not be negative, not %v", f.timeout)
	}
	missing, err := enum("missing-crds", f.missing, "skip", "error")
	if err != nil {
		return usageError(c, stderr, "%v", err)
	}
	unmodelled, err := enum("unmodelled", f.unmodelled, "pass", "fail")
	if err != nil {
		return usageError(c, stderr, "%v", err)
	}
	if f.subresource != "" {
		if !subresourceName.MatchString(f.subresource) {
			return usageError(c, stderr, "--subresource %q: a subresource's name (status, scale, ephemeralcontainers, ...)", f.subresource)
		}
		if f.subresource == "status" && f.old == "" {
			return usageError(c, stderr, "--subresource status needs --old (a status update)")
		}
	}
	if fs.NArg() == 0 {
		return usageError(c, stderr, "no objects given (files, directories or -)")
	}
	if code := stdinOnce(c, stderr, f.crds, fs.Args(), []string{f.old, f.oldCRD, f.request}, f.policies); code >= 0 {
		return code
	}
	if f.storedVersions != "" && f.oldCRD == "" {
		return usageError(c, stderr, "--stored-versions needs --old-crd")
	}
	var update crdUpdateFunc
	if f.oldCRD != "" {
		if len(f.crds) != 1 || f.crds[0] == "-" {
			return usageError(c, stderr, "--old-crd needs exactly one --crd FILE (not stdin)")
		}
		if update, err = pickRuntime[crdUpdateFunc](f.runtimeFlags, nativeCRDUpdate, func(m *wasmModule) (crdUpdateFunc, error) { return wasmCRDUpdate(m, "crdlab validate --old-crd") }); err != nil {
			return runtimeError(c, stderr, err)
		}
	}
	cat, code := newCatalog(&f.outputFlags, stderr)
	if cat == nil {
		return code
	}
	if f.oldCRD != "" {
		// The --crd CRD is an update of the one in the cluster: its
		// verdict is the update's (engine.CompileCRDUpdate).
		compiled, _, code := compileUpdateFiles(update, f.crds[0], f.oldCRD, f.storedVersions, f.kube.version, stdin, stderr)
		if compiled == nil {
			return code
		}
		updated := f.crds[0]
		cat.Compiler = func(d inputs.Document, def *crd.CustomResourceDefinition) (inputs.Compiled, error) {
			if d.File == updated {
				return compiled, nil
			}
			return inputs.Native(d, def)
		}
	}
	defer closeEngine()
	reader := &inputs.Reader{Recursive: f.recursive, Stdin: stdin}
	opts := inputs.Options{Jobs: f.jobs, MissingCRDs: inputs.MissingCRDs(missing), Timeout: f.timeout,
		Results:  f.output == "json" || f.output == "jsonl" || f.output == "yaml",
		Validate: engine.ValidateOptions{Version: f.version, Subresource: f.subresource, FieldValidation: engine.FieldValidation(fv)},
		Kinds:    f.kinds, SkipKinds: f.skipKinds}
	if f.builtins {
		rel, err := kubeversion.Parse(f.kube.version)
		if err != nil {
			return usageError(c, stderr, "%v", err)
		}
		opts.Builtins = &inputs.Builtins{Release: rel}
	}
	var old []byte
	if f.old != "" {
		docs, err := reader.Read([]string{f.old}, "stored object (--old)")
		if err != nil {
			return reportInputError(stderr, err)
		}
		if len(docs) != 1 {
			return reportInputError(stderr, fmt.Errorf("%s: --old must hold exactly one object, found %d", f.old, len(docs)))
		}
		old = docs[0].Data
		opts.Validate.Old = old
	}
	crdDocs, err := reader.Read(f.crds, "CRD (--crd)")
	if err != nil {
		return reportInputError(stderr, err)
	}
	// The inputs are scanned (read and split, only the documents that
	// may be CRDs or kind: List parsed): the catalogue needs every CRD
	// first. The objects are read again, parsed once and validated as
	// the run goes (inputs.Inputs).
	reader.Mark = []byte(admission.APIGroup) // policies, bindings, webhook configurations
	in, err := reader.Scan(fs.Args(), "objects")
	if err != nil {
		return reportInputError(stderr, err)
	}
	// inputError is the input error a run stopping before validating
	// reports first: a syntax error of a document not parsed yet.
	inputError := func() int {
		if err := in.Check(); err != nil {
			return reportInputError(stderr, err)
		}
		return -1
	}
	given := crdDocs[:0:0]
	for _, d := range crdDocs {
		if d.IsCRD() {
			given = append(given, d)
		}
	}
	for _, name := range f.crds {
		if !holdsCRD(given, name) {
			if code := inputError(); code >= 0 {
				return code
			}
			return reportInputError(stderr, fmt.Errorf("%s: no CustomResourceDefinition found (--crd)", name))
		}
	}
	inputCRDs := in.CRDs()
	defs := append(append([]inputs.Document(nil), given...), inputCRDs...)
	if f.empty && in.Len() == 0 {
		return writeEmpty(f.outputFlags, stdout, stderr)
	}
	if len(defs) == 0 && !f.empty {
		// Without CRDs, a run has something to validate only when some
		// input is a built-in object.
		builtins := false
		if opts.Builtins != nil {
			if builtins, err = in.HasBuiltinObjects(); err != nil {
				return reportInputError(stderr, err)
			}
		}
		if !builtins {
			if code := inputError(); code >= 0 {
				return code
			}
			return usageError(c, stderr, "no CustomResourceDefinitions: give --crd FILE|DIR, or include the CRDs among the inputs")
		}
	}
	if in.Len() == 0 {
		return usageError(c, stderr, "no objects found in %s", strings.Join(fs.Args(), ", "))
	}
	if err := cat.AddAll(defs, f.jobs); err != nil {
		if code := inputError(); code >= 0 {
			return code
		}
		return reportInputError(stderr, err)
	}
	// Validating admission policies (--policy, or among the inputs) run
	// on every object that passes validation.
	var bk *builtinAdmission
	if opts.Builtins != nil {
		bk = &builtinAdmission{kinds: newBuiltinKinds(opts.Builtins.Release), fieldValidation: fv}
	}
	rel, err := kubeversion.Parse(f.kube.version)
	if err != nil {
		return usageError(c, stderr, "%v", err)
	}
	en, err := f.enablement.parse(rel)
	if err != nil {
		return usageError(c, stderr, "%v", err)
	}
	policies, err := loadAdmission(&f.admissionFlags, inputs.Reader{Recursive: f.recursive, Stdin: stdin}, fs.Args(), in.Marked(), cat, old != nil, bk, en)
	if err != nil {
		if _, ok := err.(*inputs.InputError); ok {
			return reportInputError(stderr, err)
		}
		if _, ok := err.(*admission.DecodeError); ok {
			return reportInputError(stderr, err)
		}
		if _, ok := err.(*admission.CreateError); ok {
			return reportInputError(stderr, err)
		}
		return usageError(c, stderr, "%v", err)
	}
	if policies != nil {
		if opts.Validate.Subresource, err = policies.subresource(f.subresource); err != nil {
			return usageError(c, stderr, "%v", err)
		}
		if n := admissionReleaseNote(f.kube.version); n != "" {
			policies.releaseNote = n
			fmt.Fprintf(stderr, "note: %s\n", n)
		}
		if n := policies.mutatingOff; n != "" {
			fmt.Fprintf(stderr, "note: %s\n", n)
		}
		if policies.adm.Policies() > 0 || policies.mut == nil || policies.adm.WebhookCount() > 0 {
			policies.keepResults = opts.Results
			opts.Results = true
			opts.Admit = policies.apply
		}
		if old != nil {
			policies.oldObject, _ = admission.DecodeObject(old)
		}
		if policies.mut != nil || policies.hooked != nil {
			opts.Mutate = policies.mutateAll
		}
	} else if len(f.policies) == 0 && f.request == "" && f.webhookResponses != nil {
		return usageError(c, stderr, "--webhook-response %s: no webhook configuration is given (--policy or among the inputs)", f.webhookResponses[0])
	} else if len(f.policies) > 0 || f.request != "" {
		return usageError(c, stderr, "no ValidatingAdmissionPolicy, MutatingAdmissionPolicy, binding or webhook configuration found in --policy %s", strings.Join(f.policies, ", "))
	}
	// A --crd CRD that is invalid is reported first: its objects fail
	// because of it.
	var run []inputs.Document
	for _, e := range cat.Entries() {
		if len(e.CRD.Report().Errors) > 0 && holdsDoc(given, e.Doc) && !holdsDoc(inputCRDs, e.Doc) {
			run = append(run, e.Doc)
		}
	}
	// Each entry is written as soon as it and those before it are
	// validated, then dropped (junit keeps them, without their objects).
	w, err := report.NewWriter(f.output, stdout, stderr, report.Options{Summary: f.summary, Update: old != nil, FailPartial: unmodelled == "fail", KubeVersion: f.kube.version})
	if err != nil {
		if code := inputError(); code >= 0 {
			return code
		}
		return reportInputError(stderr, err)
	}
	nRun := len(run)
	if err := w.Begin(nRun + in.Len()); err != nil {
		return reportInputError(stderr, err)
	}
	var oldObj map[string]interface{}
	if old != nil && json.Unmarshal(old, &oldObj) != nil {
		oldObj = nil
	}
	summary, err := cat.StreamInputs(run, in, opts, func(i int, d *inputs.Document, r *inputs.Result) error {
		if oldObj != nil && i >= nRun {
			markUnchanged(&r.RunEntry, *d, oldObj, cat, opts)
		}
		return w.Entry(r)
	})
	if err == nil {
		err = w.End(summary)
	} else {
		// An input met mid-stream that does not parse stops the run: the
		// entries written so far are flushed, the document formats closed
		// over them (report.Writer.Stop); the error on stderr and exit
		// status 2 say the run stopped there.
		_ = w.Stop(summary)
	}
	if err != nil {
		return reportInputError(stderr, err)
	}
	if summary.Invalid > 0 || summary.Errors > 0 || unmodelled == "fail" && summary.Partial > 0 {
		return exitInvalid
	}
	return exitValid
}

func holdsDoc(docs []inputs.Document, d inputs.Document) bool {
	for _, x := range docs {
		if x.File == d.File && x.Index == d.Index && x.Item == d.Item {
			return true
		}
	}
	return false
}

// markUnchanged turns the success of an update whose stored result is the
// old object into kubectl's "unchanged".
func markUnchanged(r *wire.RunEntry, doc inputs.Document, oldObj map[string]interface{}, cat *inputs.Catalog, opts inputs.Options) {
	if r.Status != wire.StatusValid || doc.IsCRD() {
		return
	}
	e, _ := cat.Lookup(doc.APIVersion, doc.Kind)
	if e == nil {
		return
	}
	obj, err := e.CRD.Validate(context.Background(), doc.Body(), opts.Validate)
	if err != nil || obj.Result == nil {
		return
	}
	if sameObject(obj.Result, oldObj) {
		r.Unchanged = true
	}
}

// sameObject compares a stored result with the old object, leaving out
// what the server sets on every write (resourceVersion, generation,
// namespace defaulting, uid, timestamps, managedFields).
func sameObject(result interface{}, old map[string]interface{}) bool {
	norm := func(v interface{}) interface{} {
		b, _ := json.Marshal(v)
		var m map[string]interface{}
		json.Unmarshal(b, &m)
		if meta, ok := m["metadata"].(map[string]interface{}); ok {
			for _, k := range []string{"resourceVersion", "generation", "namespace", "uid", "creationTimestamp", "managedFields"} {
				delete(meta, k)
			}
		}
		return m
	}
	return reflect.DeepEqual(norm(result), norm(old))
}
