package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	flag "github.com/spf13/pflag"
	"sigs.k8s.io/yaml"

	"github.com/crdlab/crdlab/admission"
	iadm "github.com/crdlab/crdlab/internal/admission"
	"github.com/crdlab/crdlab/internal/cli/inputs"
	"github.com/crdlab/crdlab/internal/cli/report"
	"github.com/crdlab/crdlab/internal/kubeversion"
	"github.com/crdlab/crdlab/internal/yamldoc"
	"github.com/crdlab/crdlab/wire"
)

// Validating admission policies on validate: --policy, --request,
// --operation, --user, --group.

type admissionFlags struct {
	policies         []string
	webhookResponses []string
	request          string
	operation        string
	user             string
	groups           []string
	enablement       enablementFlags
}

func (a *admissionFlags) declare(fs *flag.FlagSet) {
	fs.StringArrayVar(&a.policies, "policy", nil, "Validating and Mutating AdmissionPolicies, bindings, params, Namespaces and Validating/MutatingWebhookConfigurations `FILE` or directory (repeatable); those among the inputs apply too")
	fs.StringVar(&a.request, "request", "", "an admission.k8s.io/v1 AdmissionReview `FILE`: its request's operation, subResource, userInfo, dryRun and options apply to every object")
	fs.StringArrayVar(&a.webhookResponses, "webhook-response", nil, webhookResponseUsage)
	fs.StringVar(&a.operation, "operation", "", "the admission operation: CREATE, UPDATE or DELETE (default: CREATE, UPDATE with --old)")
	fs.StringVar(&a.user, "user", "", "the requesting user's name (default: kubernetes-admin)")
	fs.StringArrayVar(&a.groups, "group", nil, "a group of the requesting user (repeatable; default: system:masters and system:authenticated)")
	a.enablement.declare(fs)
}

// defaultUser is the requesting user when neither --request nor --user
// names one: a cluster administrator, as kubectl's admin kubeconfig of
// kind and kubeadm clusters.
var defaultUser = admission.UserInfo{Username: "kubernetes-admin", Groups: []string{"system:masters", "system:authenticated"}}

// admissionReview is the part of an AdmissionReview crdlab reads: the
// other fields of its request are accepted and ignored (they are the
// object's).
type admissionReview struct {
	APIVersion string           `json:"apiVersion"`
	Kind       string           `json:"kind"`
	Request    *reviewRequest   `json:"request"`
	Response   *json.RawMessage `json:"response,omitempty"`
}

type reviewRequest struct {
	UID                string                 `json:"uid,omitempty"`
	Kind               json.RawMessage        `json:"kind,omitempty"`
	Resource           json.RawMessage        `json:"resource,omitempty"`
	SubResource        string                 `json:"subResource,omitempty"`
	RequestKind        json.RawMessage        `json:"requestKind,omitempty"`
	RequestResource    json.RawMessage        `json:"requestResource,omitempty"`
	RequestSubResource string                 `json:"requestSubResource,omitempty"`
	Name               string                 `json:"name,omitempty"`
	Namespace          string                 `json:"namespace,omitempty"`
	Operation          string                 `json:"operation,omitempty"`
	UserInfo           *admission.UserInfo    `json:"userInfo,omitempty"`
	Object             json.RawMessage        `json:"object,omitempty"`
	OldObject          json.RawMessage        `json:"oldObject,omitempty"`
	DryRun             *bool                  `json:"dryRun,omitempty"`
	Options            map[string]interface{} `json:"options,omitempty"`
}

// policyRun is validate's admission step.
type policyRun struct {
	adm         *admission.Admitter
	mut         *mutatingRun
	oldObject   map[string]interface{} // --old, the UPDATE's stored object
	tmpl        admission.Request
	nameNS      bool // the request names the name and namespace
	cat         *inputs.Catalog
	keepResults bool
	// builtin, when the run validates built-in objects, is what their
	// admission needs (builtinadmission.go).
	builtin *builtinAdmission
	// webhookAnswers are the --webhook-response answers; hooked, when a
	// mutating webhook has one, what the mutating step's webhooks did.
	webhookAnswers *webhookAnswers
	hooked         *webhookMutation
	// releaseNote is admissionReleaseNote's remark, in every outcome's notes.
	releaseNote string
	// mutatingOff is apiEnablement.mutatingNote's remark when the
	// mutating policies are not run.
	mutatingOff string
}

// admissionReleaseNote is the remark that admission (policies, webhook
// matching) is evaluated as 1.37's (kubeversion.AdmissionMinor) when
// --kube-version asks for another release: the objects' and CRDs'
// validation follow the release, admission does not
// (docs/kube-versions.md). "" at 1.37.
func admissionReleaseNote(kubeVersion string) string {
	rel, err := kubeversion.Parse(kubeVersion)
	if kubeVersion == "" || err != nil || rel.Minor() == kubeversion.AdmissionMinor {
		return ""
	}
	return fmt.Sprintf("admission is evaluated as Kubernetes %s's (policies, webhook matching): --kube-version %s applies to validation only", kubeversion.Of(kubeversion.AdmissionMinor), rel)
}

// loadAdmission reads the policies (--policy and the inputs) and the
// request; it returns nil when there is no policy.
func loadAdmission(f *admissionFlags, reader inputs.Reader, paths []string, mentioned bool, cat *inputs.Catalog, update bool, bk *builtinAdmission, en *apiEnablement) (*policyRun, error) {
	in := &admission.Inputs{}
	if len(f.policies) > 0 {
		docs, err := reader.Read(f.policies, "policies (--policy)")
		if err != nil {
			return nil, err
		}
		if err := decodePolicyDocs(in, docs, true, en); err != nil {
			return nil, err
		}
	}
	// The inputs are read again for policies, params and Namespaces only
	// when a policy is given or one of the input files names the kind
	// (mentioned: noted by the scan that read them first, so a run
	// without policies reads nothing twice).
	found := mentioned || hasAdmission(in)
	var args []string
	for _, a := range paths {
		if a != "-" { // stdin is read once, by the validation
			args = append(args, a)
		}
	}
	if !found {
		return nil, nil
	}
	docs, err := reader.Read(args, "objects")
	if err != nil {
		return nil, err
	}
	if err := decodePolicyDocs(in, docs, false, en); err != nil {
		return nil, err
	}
	if !hasAdmission(in) {
		return nil, nil
	}
	p := &policyRun{cat: cat, tmpl: admission.Request{Operation: "CREATE", UserInfo: defaultUser}, builtin: bk}
	if update {
		p.tmpl.Operation = "UPDATE"
	}
	if f.request != "" {
		if err := p.readRequest(reader, f.request); err != nil {
			return nil, err
		}
	}
	if f.operation != "" {
		op := strings.ToUpper(f.operation)
		if op != "CREATE" && op != "UPDATE" && op != "DELETE" {
			return nil, fmt.Errorf("--operation must be CREATE, UPDATE or DELETE, not %q", f.operation)
		}
		p.tmpl.Operation = op
	}
	p.setUser(f)
	if bk != nil {
		// Params and Namespaces as the cluster stores them.
		in.Objects = admission.StoredObjects(in.Objects, bk.kinds)
	}
	if p.tmpl.Operation == "UPDATE" && !update {
		return nil, fmt.Errorf("an UPDATE needs the stored object: give --old FILE")
	}
	p.adm, err = admission.New(admission.Config{Policies: in.Policies, Bindings: in.Bindings, Webhooks: in.Webhooks, Objects: in.Objects, Resources: p.resources()})
	if err != nil {
		return nil, err
	}
	if n := en.mutatingNote(); n != "" && len(in.MutatingPolicies) > 0 {
		// The plugin is off: the policies are stored, never run.
		p.mutatingOff = n
	} else if err := p.loadMutating(in); err != nil {
		return nil, err
	}
	if p.webhookAnswers, err = loadWebhookAnswers(f.webhookResponses, reader, p.adm); err != nil {
		return nil, err
	}
	if p.webhookAnswers != nil && p.webhookAnswers.mutating {
		p.hooked = &webhookMutation{done: map[*inputs.Document]*admission.WebhookDispatch{}, targets: map[string]*mutationTarget{}}
	}
	return p, nil
}

func decodePolicyDocs(in *admission.Inputs, docs []inputs.Document, all bool, en *apiEnablement) error {
	for _, d := range docs {
		if d.IsCRD() {
			continue
		}
		if admission.IsAdmissionKind(d.APIVersion, d.Kind) || iadm.IsRBACKind(d.APIVersion, d.Kind) {
			body, file, line := d.Raw, d.File, d.RawLine
			if d.Item >= 0 || body == nil {
				body, file, line = d.Data, d.Where(), 0
			}
			var got *admission.Inputs
			var err error
			if en != nil {
				got, err = iadm.DecodeDocumentServed(body, file, line, en.served)
			} else {
				got, err = iadm.DecodeDocument(body, file, line)
			}
			if err != nil {
				return err
			}
			// An object the API server would refuse to create is not in
			// the cluster: an input error (file:line and its text).
			if err := got.CheckCreate(); err != nil {
				return err
			}
			in.Add(got)
			continue
		}
		obj, err := admission.DecodeObject(d.Data)
		if err != nil {
			if all {
				return &inputs.InputError{File: d.File, Line: d.Line, Err: err}
			}
			continue
		}
		in.Objects = append(in.Objects, obj)
	}
	return nil
}

func (p *policyRun) readRequest(reader inputs.Reader, file string) error {
	data, err := reader.ReadFile(file, "AdmissionReview (--request)")
	if err != nil {
		return err
	}
	js, err := yaml.YAMLToJSON(data)
	if err != nil {
		return &inputs.InputError{File: file, Err: err}
	}
	dec := json.NewDecoder(bytes.NewReader(js))
	dec.DisallowUnknownFields()
	var rv admissionReview
	if err := dec.Decode(&rv); err != nil {
		return &inputs.InputError{File: file, Err: fmt.Errorf("not an AdmissionReview: %v", err)}
	}
	if rv.Kind != "AdmissionReview" || !strings.HasPrefix(rv.APIVersion, "admission.k8s.io/") || rv.Request == nil {
		return &inputs.InputError{File: file, Err: fmt.Errorf("expected an admission.k8s.io/v1 AdmissionReview with a request")}
	}
	r := rv.Request
	if r.Operation != "" {
		p.tmpl.Operation = strings.ToUpper(r.Operation)
	}
	p.tmpl.SubResource = r.SubResource
	if r.UserInfo != nil {
		p.tmpl.UserInfo = *r.UserInfo
	}
	if r.DryRun != nil {
		p.tmpl.DryRun = *r.DryRun
	}
	p.tmpl.Options = r.Options
	if r.Name != "" || r.Namespace != "" {
		p.nameNS = true
		p.tmpl.Name, p.tmpl.Namespace = r.Name, r.Namespace
	}
	return nil
}

// subresource joins --subresource (flag) and the --request's subResource:
// the request's subresource, which both the schema step and the policies'
// matching see (a rule naming widgets/status matches a status update only).
// A request's subResource status is a status update as --subresource status
// is; they must agree when both are given.
func (p *policyRun) subresource(flag string) (string, error) {
	req := p.tmpl.SubResource
	switch {
	case req == "":
		p.tmpl.SubResource = flag
		return flag, nil
	case flag != "" && flag != req:
		return "", fmt.Errorf("--subresource %s and the --request's subResource %q differ", flag, req)
	case req != "status":
		// Another subresource: matched for built-in resources that
		// have it (a custom resource's entry says it is not modelled).
	case p.tmpl.Operation != "UPDATE":
		return "", fmt.Errorf("--request: subResource status needs the operation UPDATE and --old (a status update), not %s", p.tmpl.Operation)
	}
	return req, nil
}

// catalogResources answers the admission package's resource questions from
// the CRDs of the run.
func catalogResources(cat *inputs.Catalog) iadm.CRDResources {
	var defs iadm.CRDResources
	for _, e := range cat.Entries() {
		if e.Def != nil {
			defs = append(defs, e.Def)
		}
	}
	return defs
}

// resources are the run's resources: its CRDs, and the built-in ones when
// the run validates built-in objects.
func (p *policyRun) resources() admission.Resources {
	return runResources{catalogResources(p.cat), p.builtin}
}

// apply runs validating admission on a valid entry: a denial makes it
// invalid, with the API server's message as its error.
func (p *policyRun) apply(d *inputs.Document, r *inputs.Result) {
	defer func() {
		if !p.keepResults {
			r.Result, r.OldResult = nil, nil
		}
	}()
	if r.Mutation != nil && !r.Mutation.Allowed {
		// Refused by mutating admission: the webhooks as far as they ran.
		if p.hooked != nil {
			if res := p.hooked.take(d); res != nil {
				prependWarnings(r, res.Warnings)
				r.Webhooks = append(res.Calls, validatingNotReached(p.adm, "not reached: the request failed at "+failedAt(res.Calls))...)
				if !res.Allowed {
					// kubectl prints the webhook's status.
					r.Admission = &wire.AdmissionOutcome{Message: res.Message, Reason: res.Reason, Code: res.Code}
				}
			}
		}
		return
	}
	if r.Status != wire.StatusValid && p.hooked != nil {
		// The mutating webhooks ran before the validation that failed.
		if res := p.hooked.take(d); res != nil {
			prependWarnings(r, res.Warnings)
			r.Webhooks = append(res.Calls, validatingNotReached(p.adm, "not reached: the object is invalid")...)
		}
	}
	if admission.IsAdmissionKind(r.APIVersion, r.Kind) {
		return
	}
	var obj, old map[string]interface{}
	var err error
	var req admission.Request
	var builtinNote string
	if e, _ := p.cat.Lookup(r.APIVersion, r.Kind); !d.IsCRD() && (e == nil || e.Def == nil) {
		// A built-in object: valid, or partial (its native validation
		// not modelled).
		var ok bool
		if req, builtinNote, ok = p.builtinValidated(d, r); !ok {
			return
		}
		obj = req.Object
		if obj == nil {
			obj = req.OldObject
		}
	} else if r.Status != wire.StatusValid {
		return
	} else if d.IsCRD() {
		obj, err = admission.DecodeObject(d.Data)
		if err == nil && obj != nil {
			req = admission.ObjectRequest(p.tmpl, r.APIVersion, r.Kind, "customresourcedefinitions", false, obj, p.storedCRD(r.Name), p.nameNS)
		}
	} else {
		e, _ := p.cat.Lookup(r.APIVersion, r.Kind)
		if e == nil || e.Def == nil {
			return
		}
		obj, err = admission.ObjectOf(r.Result)
		if err == nil && r.OldResult != nil {
			old, err = admission.ObjectOf(r.OldResult)
		}
		if err == nil && obj != nil {
			req = admission.ObjectRequest(p.tmpl, r.APIVersion, r.Kind, e.Def.Spec.Names.Plural, e.Def.Spec.Scope != "Cluster", obj, old, p.nameNS)
		}
	}
	if err != nil || obj == nil {
		return
	}
	// The admission chain: mutating webhooks, then validating policies,
	// then validating webhooks; a failure ends it.
	mres := p.mutatingCalls(d, &req)
	prependWarnings(r, mres.Warnings)
	if !mres.Allowed {
		r.Webhooks = append(mres.Calls, validatingNotReached(p.adm, "not reached: the request failed at "+failedAt(mres.Calls))...)
		failWith(r, mres.Message, mres.Reason, mres.Code)
		return
	}
	dec := p.adm.Validate(&req)
	vres := admission.WebhookDispatch{Allowed: true}
	if dec.Denied != nil {
		r.Webhooks = append(mres.Calls, validatingNotReached(p.adm, "not reached: the request was denied by ValidatingAdmissionPolicy '"+dec.Denied.Policy+"'")...)
	} else {
		vres = p.adm.DispatchWebhooks(&req, false, p.webhookAnswers.answers())
		r.Webhooks = append(mres.Calls, vres.Calls...)
	}
	if p.adm.Policies() == 0 {
		addWarnings(r, vres.Warnings)
		if !vres.Allowed {
			failWith(r, vres.Message, vres.Reason, vres.Code)
		}
		return
	}
	out := &wire.AdmissionOutcome{Allowed: dec.Denied == nil, Warnings: dec.Warnings, AuditAnnotations: dec.AuditAnnotations,
		Evaluated: dec.Evaluated, Notes: dec.Notes}
	if builtinNote != "" {
		out.Notes = append(out.Notes, builtinNote)
	}
	if p.releaseNote != "" {
		out.Notes = append(out.Notes, p.releaseNote)
	}
	addWarnings(r, dec.Warnings)
	addWarnings(r, vres.Warnings)
	if dec.Denied != nil {
		out.Policy, out.Binding, out.Message, out.Reason, out.Code = dec.Denied.Policy, dec.Denied.Binding, dec.Denied.Message, dec.Denied.Reason, dec.Denied.Code
		r.Status = wire.StatusInvalid
		r.Errors = append(r.Errors, wire.LocatedError{ErrorReport: wire.ErrorReport{Type: "AdmissionDenied", Detail: dec.Denied.Cause, Message: dec.Denied.Message}, Line: r.Line})
	}
	r.Admission = out
	if !vres.Allowed {
		failWith(r, vres.Message, vres.Reason, vres.Code)
	}
}

// storedCRD is the oldObject of the UPDATE of the CRD named name: --old
// when it is that CustomResourceDefinition (the stored CRD the input
// replaces, as lint --old and upgrade read it), else nil.
func (p *policyRun) storedCRD(name string) map[string]interface{} {
	if p.tmpl.Operation != "UPDATE" || p.oldObject == nil {
		return nil
	}
	apiVersion, _ := p.oldObject["apiVersion"].(string)
	kind, _ := p.oldObject["kind"].(string)
	md, _ := p.oldObject["metadata"].(map[string]interface{})
	if kind != "CustomResourceDefinition" || !strings.HasPrefix(apiVersion, "apiextensions.k8s.io/") || md["name"] != name {
		return nil
	}
	old, _ := admission.DecodeObject(mustJSON(p.oldObject))
	return old
}

// declareForUpdate declares the flags of the CRD-update commands (lint
// --old, upgrade): the request is the CRD's UPDATE.
func (a *admissionFlags) declareForUpdate(fs *flag.FlagSet) {
	fs.StringArrayVar(&a.policies, "policy", nil, "ValidatingAdmissionPolicies, bindings and Validating/MutatingWebhookConfigurations `FILE` or directory (repeatable): applied to the CRD update")
	fs.StringVar(&a.request, "request", "", "an admission.k8s.io/v1 AdmissionReview `FILE`: its request's userInfo, dryRun and options")
	fs.StringArrayVar(&a.webhookResponses, "webhook-response", nil, webhookResponseUsage)
	fs.StringVar(&a.user, "user", "", "the requesting user's name (default: kubernetes-admin)")
	fs.StringArrayVar(&a.groups, "group", nil, "a group of the requesting user (repeatable; default: system:masters and system:authenticated)")
	a.enablement.declare(fs)
}

// noResources knows no CRD: the request is a CRD's own.
type noResources struct{}

func (noResources) Equivalents(r admission.GVR, _ string) []admission.Equivalent { return nil }
func (noResources) ParamScope(_, kind string) bool                               { return !iadm.ClusterScopedBuiltin(kind) }

// crdUpdateAdmission runs the --policy policies and webhook configurations
// on the update of the CRD oldRaw to newRaw (an UPDATE of
// customresourcedefinitions), in the API server's order: mutating
// webhooks, validating policies, validating webhooks (the webhooks are
// matched, not called); nil when no --policy is given. Mutating policies
// are not run on CRDs (a note says so).
func crdUpdateAdmission(f *admissionFlags, reader inputs.Reader, newRaw, oldRaw []byte, kubeVersion string) (*wire.AdmissionOutcome, error) {
	if len(f.policies) == 0 {
		if f.request != "" || f.user != "" || f.groups != nil || f.webhookResponses != nil {
			return nil, fmt.Errorf("--request, --user, --group and --webhook-response need --policy")
		}
		return nil, nil
	}
	docs, err := reader.Read(f.policies, "policies (--policy)")
	if err != nil {
		return nil, err
	}
	rel, err := kubeversion.Parse(kubeVersion)
	if err != nil {
		return nil, err
	}
	en, err := f.enablement.parse(rel)
	if err != nil {
		return nil, err
	}
	in := &admission.Inputs{}
	if err := decodePolicyDocs(in, docs, true, en); err != nil {
		return nil, err
	}
	if !hasAdmission(in) {
		return nil, fmt.Errorf("no admission policy, binding or webhook configuration found in --policy %s", strings.Join(f.policies, ", "))
	}
	p := &policyRun{tmpl: admission.Request{UserInfo: defaultUser}}
	if f.request != "" {
		if err := p.readRequest(reader, f.request); err != nil {
			return nil, err
		}
	}
	p.setUser(f)
	adm, err := admission.New(admission.Config{Policies: in.Policies, Bindings: in.Bindings, Webhooks: in.Webhooks, Objects: in.Objects, Resources: noResources{}})
	if err != nil {
		return nil, err
	}
	obj, err := yamlObject(newRaw)
	if err != nil {
		return nil, err
	}
	old, err := yamlObject(oldRaw)
	if err != nil {
		return nil, err
	}
	req := p.tmpl
	req.Operation = "UPDATE"
	req.Kind = admission.GVK{Group: "apiextensions.k8s.io", Version: "v1", Kind: "CustomResourceDefinition"}
	req.Resource = admission.GVR{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"}
	req.Object, req.OldObject = obj, old
	if md, ok := obj["metadata"].(map[string]interface{}); ok {
		req.Name, _ = md["name"].(string)
	}
	req.Namespace = ""
	var notes []string
	if n := admissionReleaseNote(kubeVersion); n != "" {
		notes = append(notes, n)
	}
	if len(in.MutatingPolicies) > 0 || len(in.MutatingBindings) > 0 {
		notes = append(notes, "MutatingAdmissionPolicies are not run on CRD updates: crdlab mutates only the custom resources of the run's CRDs")
	}
	answers, err := loadWebhookAnswers(f.webhookResponses, reader, adm)
	if err != nil {
		return nil, err
	}
	mres := adm.DispatchWebhooks(&req, true, answers.answers())
	if mres.Patched {
		req.Object = mres.Object
		notes = append(notes, "the mutating webhooks' patches are applied to the CRD the policies and validating webhooks see; crdlab does not validate the patched CRD again")
	}
	if !mres.Allowed {
		out := &wire.AdmissionOutcome{Message: mres.Message, Reason: mres.Reason, Code: mres.Code, Warnings: mres.Warnings, Notes: notes,
			Webhooks: append(mres.Calls, validatingNotReached(adm, "not reached: the request failed at "+failedAt(mres.Calls))...)}
		return out, nil
	}
	dec := adm.Validate(&req)
	out := &wire.AdmissionOutcome{Allowed: dec.Denied == nil, Warnings: append(mres.Warnings, dec.Warnings...), AuditAnnotations: dec.AuditAnnotations,
		Evaluated: dec.Evaluated, Notes: append(notes, dec.Notes...)}
	if d := dec.Denied; d != nil {
		out.Policy, out.Binding, out.Message, out.Reason, out.Code = d.Policy, d.Binding, d.Message, d.Reason, d.Code
		out.Webhooks = append(mres.Calls, validatingNotReached(adm, "not reached: the request was denied by ValidatingAdmissionPolicy '"+d.Policy+"'")...)
		return out, nil
	}
	vres := adm.DispatchWebhooks(&req, false, answers.answers())
	out.Webhooks = append(mres.Calls, vres.Calls...)
	out.Warnings = append(out.Warnings, vres.Warnings...)
	if !vres.Allowed {
		out.Allowed, out.Message, out.Reason, out.Code = false, vres.Message, vres.Reason, vres.Code
	}
	return out, nil
}

// yamlObject decodes the one YAML or JSON document of a CRD file.
func yamlObject(data []byte) (map[string]interface{}, error) {
	docs, err := yamldoc.Split(data)
	if err != nil {
		return nil, err
	}
	for _, d := range docs {
		if !yamldoc.Empty(d.Data) {
			data = d.Data
			break
		}
	}
	js, err := yaml.YAMLToJSON(data)
	if err != nil {
		return nil, err
	}
	return admission.DecodeObject(js)
}

// writeAdmissionText prints a CRD update's admission outcome as kubectl
// replace would: warnings, then the denial.
func writeAdmissionText(stderr interface{ Write([]byte) (int, error) }, file string, a *wire.AdmissionOutcome) {
	if a == nil {
		return
	}
	for _, w := range a.Warnings {
		fmt.Fprintf(stderr, "Warning: %s\n", w)
	}
	if !a.Allowed {
		fmt.Fprintf(stderr, "%s: error when replacing %q: %s\n", report.FromServer(a.Reason), file, a.Message)
	}
}

// crdWebhooksLine is crdlab's text line on the webhooks of a CRD update
// ("customresourcedefinition.apiextensions.k8s.io/<name> webhooks: …", as
// validate writes it for an object), or "" when no webhook configuration
// was given.
func crdWebhooksLine(name string, a *wire.AdmissionOutcome) string {
	if a == nil || len(a.Webhooks) == 0 {
		return ""
	}
	return report.WebhooksLine(&wire.RunEntry{APIVersion: "apiextensions.k8s.io/v1", Kind: "CustomResourceDefinition", Name: name, Webhooks: a.Webhooks})
}

// hasAdmission reports whether in holds a policy, binding or webhook
// configuration (params and Namespaces alone do nothing).
func hasAdmission(in *admission.Inputs) bool {
	return len(in.Policies) > 0 || len(in.Bindings) > 0 || len(in.Webhooks) > 0 || len(in.MutatingPolicies) > 0 || len(in.MutatingBindings) > 0
}

// setUser applies --user and --group to the request template: --user
// alone is in system:authenticated.
func (p *policyRun) setUser(f *admissionFlags) {
	if f.user != "" {
		p.tmpl.UserInfo = admission.UserInfo{Username: f.user}
		if f.groups == nil {
			p.tmpl.UserInfo.Groups = []string{"system:authenticated"}
		}
	}
	if f.groups != nil {
		p.tmpl.UserInfo.Groups = f.groups
	}
}
