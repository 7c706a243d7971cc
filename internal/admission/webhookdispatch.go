package admission

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"unicode"
	"unicode/utf8"

	jsonpatch "gopkg.in/evanphx/json-patch.v4"

	"github.com/crdlab/crdlab/internal/keys"
	"github.com/crdlab/crdlab/internal/limits"
	"github.com/crdlab/crdlab/internal/names"
	"github.com/crdlab/crdlab/wire"
)

// The webhooks' recorded answers applied as the API server's dispatchers
// apply the answers of the calls they make: k8s.io/apiserver v0.37.2
// pkg/admission/plugin/webhook/mutating/dispatcher.go (Dispatch,
// callAttrMutatingHook, the webhook annotator), validating/dispatcher.go
// (Dispatch, callHook), request/admissionreview.go
// (VerifyAdmissionResponse), errors/statuserror.go (ToStatusErr),
// util/webhook/error.go (ErrCallingWebhook), and the warning recorder of
// endpoints/filters/warning.go. Nothing is sent: a called webhook without
// a recorded answer stays "called".

// Outcomes of a webhook's answer (WebhookAnswer.Outcome).
const (
	AnswerAllowed = "allowed" // allowed, the object unchanged
	AnswerPatched = "patched" // allowed with a patch that changed the object
	AnswerDenied  = "denied"  // allowed: false
	AnswerFailed  = "failed"  // the answer is unusable and fails the request
	AnswerIgnored = "ignored" // the answer is unusable; failurePolicy Ignore lets the request through
)

// WebhookAnswer is what the API server makes of a called webhook's
// recorded answer: the wire type (Outcome is one of the Answer* outcomes).
type WebhookAnswer = wire.WebhookAnswer

// WebhookDispatch is one dispatcher's run (the mutating or the validating
// webhooks) on a request with recorded answers.
type WebhookDispatch struct {
	// Calls are the webhooks of the dispatcher's type, in order, with
	// the answers of those called and answered.
	Calls []WebhookCall
	// Object is the request's object after the mutating webhooks' patches
	// (the request's own when none changed it); Patched tells whether one
	// did.
	Object  map[string]interface{}
	Patched bool
	// Allowed is false when the request fails: Message, Reason and Code
	// are the API server's status.
	Allowed bool
	Message string
	Reason  string
	Code    int
	// Warnings and AuditAnnotations are the request's from these calls.
	Warnings         []string
	AuditAnnotations map[string]string
}

// callError is util/webhook ErrCallingWebhook: the call failed, and the
// webhook's failurePolicy decides.
type callError struct {
	webhook string
	reason  string
}

func (e *callError) Error() string {
	return fmt.Sprintf("failed calling webhook %q: %s", e.webhook, e.reason)
}

// DispatchWebhooks runs the mutating (mutating true) or validating
// webhooks on req, applying the answers recorded for them (keyed by
// WebhookKey). The mutating ones run in order, each seeing the object the
// earlier patches made; the first failure ends the dispatch. The validating
// ones are all matched first (a matching error fails the request before any
// call), then every called one answers (the API server calls them in
// parallel); the first failure in order is the request's.
func (a *Admitter) DispatchWebhooks(req *Request, mutating bool, answers map[string]*WebhookResponse) WebhookDispatch {
	d := WebhookDispatch{Object: req.Object, Allowed: true}
	cur := *req
	typ := "validating"
	if mutating {
		typ = "mutating"
	}
	var hooks []*compiledWebhook
	for _, w := range a.webhooks {
		if w.config.Mutating() == mutating {
			hooks = append(hooks, w)
		}
	}
	failedAt := ""
	type called struct {
		w *compiledWebhook
		i int
	}
	var calls []called
	for i, w := range hooks {
		c := WebhookCall{Configuration: w.config.Metadata.Name, Type: typ, Webhook: w.hook.Name}
		switch {
		case failedAt != "":
			c.Skipped = "not reached: the request failed at " + failedAt
		case exemptFromWebhooks(cur.Kind):
			c.Skipped = fmt.Sprintf("%s objects are not sent to webhooks", cur.Kind.Kind)
		default:
			a.shouldCall(&cur, w, &c)
			if c.Error != "" {
				failedAt = fmt.Sprintf("webhook %q of %s %q", w.hook.Name, w.config.Kind, w.config.Metadata.Name)
				d.fail(&statusError{message: c.Error, reason: reasonOf(c.Code), code: c.Code})
				break
			}
			resp := answers[WebhookKey(c.Configuration, c.Webhook)]
			if !c.Called {
				break
			}
			if !mutating {
				calls = append(calls, called{w, len(d.Calls)})
				break
			}
			if resp == nil {
				break
			}
			ans, obj, err := a.answerMutating(&cur, w, i, c.CalledWith, resp)
			c.Answer = ans
			d.record(ans)
			if err != nil {
				failedAt = fmt.Sprintf("webhook %q of %s %q", w.hook.Name, w.config.Kind, w.config.Metadata.Name)
				d.fail(err)
			} else if obj != nil {
				cur.Object, d.Object, d.Patched = obj, obj, true
			}
		}
		d.Calls = append(d.Calls, c)
	}
	if mutating || failedAt != "" {
		return d
	}
	var first *statusError
	for idx, cl := range calls {
		c := &d.Calls[cl.i]
		r := resp(answers, c)
		if r == nil {
			continue // called, not answered
		}
		ans, err := a.answerValidating(&cur, cl.w, idx, r)
		c.Answer = ans
		d.record(ans)
		if err != nil && first == nil {
			first = err
		}
	}
	if first != nil {
		d.fail(first)
	}
	return d
}

func resp(answers map[string]*WebhookResponse, c *WebhookCall) *WebhookResponse {
	return answers[WebhookKey(c.Configuration, c.Webhook)]
}

func reasonOf(code int) string {
	if code == 500 {
		return "InternalError"
	}
	return "Forbidden"
}

func (d *WebhookDispatch) fail(e *statusError) {
	if !d.Allowed {
		return
	}
	d.Allowed, d.Message, d.Reason, d.Code = false, e.message, e.reason, e.code
}

// record adds an answer's warnings (the warning recorder: empty ones and
// repeats dropped, and those a Warning header cannot carry) and audit
// annotations (an existing key is not overwritten) to the request's.
func (d *WebhookDispatch) record(ans *WebhookAnswer) {
	for _, w := range ans.Warnings {
		dup := false
		for _, x := range d.Warnings {
			dup = dup || x == w
		}
		if !dup {
			d.Warnings = append(d.Warnings, w)
		}
	}
	for k, v := range ans.AuditAnnotations {
		if d.AuditAnnotations == nil {
			d.AuditAnnotations = map[string]string{}
		}
		if _, ok := d.AuditAnnotations[k]; !ok {
			d.AuditAnnotations[k] = v
		}
	}
}

// answerValidating is validating callHook and Dispatch's handling of its
// error for the idx-th called webhook.
func (a *Admitter) answerValidating(req *Request, w *compiledWebhook, idx int, r *WebhookResponse) (*WebhookAnswer, *statusError) {
	ans := &WebhookAnswer{}
	result, err := a.verify(req, w, r, false, ans)
	if err == nil {
		return a.verdict(w, result, ans)
	}
	return failure(w, err, ans, fmt.Sprintf("failed-open.validating.webhook.admission.k8s.io/round_0_index_%d", idx))
}

// failure decides a failed call: under failurePolicy Ignore a call error
// lets the request through (with the failed-open annotation), otherwise it
// is the API server's InternalError; other errors fail the request as they
// are.
func failure(w *compiledWebhook, err error, ans *WebhookAnswer, failedOpenKey string) (*WebhookAnswer, *statusError) {
	ce, ok := err.(*callError)
	if !ok {
		se := err.(*statusError)
		if ans.Outcome != AnswerDenied {
			ans.Outcome, ans.Message, ans.Reason, ans.Code = AnswerFailed, se.message, se.reason, se.code
		}
		return ans, se
	}
	if w.hook.FailurePolicy != nil && *w.hook.FailurePolicy == "Ignore" {
		ans.Outcome, ans.Message = AnswerIgnored, ce.Error()
		addAnnotation(ans, failedOpenKey, w.hook.Name)
		return ans, nil
	}
	se := internalStatus(ce.Error())
	ans.Outcome, ans.Message, ans.Reason, ans.Code = AnswerFailed, se.message, se.reason, se.code
	return ans, se
}

// verdict is an answer's allowed or its denial (errors.ToStatusErr).
func (a *Admitter) verdict(w *compiledWebhook, result *ReviewResponse, ans *WebhookAnswer) (*WebhookAnswer, *statusError) {
	if result.Allowed {
		ans.Outcome = AnswerAllowed
		return ans, nil
	}
	deniedBy := fmt.Sprintf("admission webhook %q denied the request", w.hook.Name)
	st := ResponseStatus{}
	if result.Result != nil {
		st = *result.Result
	}
	if st.Code < 400 {
		st.Code = 400
	}
	switch {
	case st.Message != "":
		st.Message = deniedBy + ": " + st.Message
	case st.Reason != "":
		st.Message = deniedBy + ": " + st.Reason
	default:
		st.Message = deniedBy + " without explanation"
	}
	se := &statusError{message: st.Message, reason: st.Reason, code: int(st.Code)}
	ans.Outcome, ans.Message, ans.Reason, ans.Code = AnswerDenied, se.message, se.reason, se.code
	return ans, se
}

// verify is the call's checks up to the answer's content: dry run
// support, then VerifyAdmissionResponse; the answer's audit annotations
// and warnings are recorded.
func (a *Admitter) verify(req *Request, w *compiledWebhook, r *WebhookResponse, mutating bool, ans *WebhookAnswer) (*ReviewResponse, error) {
	h := w.hook
	if req.DryRun {
		if h.SideEffects == nil {
			return nil, &callError{h.Name, "Webhook SideEffects is nil"}
		}
		if s := *h.SideEffects; s != "None" && s != "NoneOnDryRun" {
			return nil, &statusError{message: fmt.Sprintf("admission webhook %q does not support dry run", h.Name), reason: "BadRequest", code: 400}
		}
	}
	invalid := func(format string, args ...interface{}) error {
		return &callError{h.Name, "received invalid webhook response: " + fmt.Sprintf(format, args...)}
	}
	// The client decodes the answer into a v1 AdmissionReview first.
	if r.APIVersion != "" && r.Kind != "" {
		switch {
		case r.APIVersion == "admission.k8s.io/v1beta1" && r.Kind == "AdmissionReview":
			return nil, &callError{h.Name, "failed to call webhook: converting (v1beta1.AdmissionReview) to (v1.AdmissionReview): unknown conversion"}
		case r.APIVersion != "admission.k8s.io/v1" || r.Kind != "AdmissionReview":
			return nil, &callError{h.Name, fmt.Sprintf("failed to call webhook: no kind %q is registered for version %q in scheme \"pkg/runtime/scheme.go:111\"", r.Kind, r.APIVersion)}
		}
	}
	if r.DecodeError != "" {
		return nil, &callError{h.Name, "failed to call webhook: " + r.DecodeError}
	}
	if r.Response == nil {
		return nil, invalid("webhook response was absent")
	}
	resp := r.Response
	uid := resp.UID
	if r.Request != nil {
		uid = r.Request.UID
	}
	if resp.UID != uid {
		return nil, invalid("expected response.uid=%q, got %q", uid, resp.UID)
	}
	if r.APIVersion != "admission.k8s.io/v1" || r.Kind != "AdmissionReview" {
		group, version, ok := strings.Cut(r.APIVersion, "/")
		if !ok {
			group, version = "", r.APIVersion
		}
		return nil, invalid("expected webhook response of admission.k8s.io/v1, Kind=AdmissionReview, got %s", gvkString(GVK{Group: group, Version: version, Kind: r.Kind}))
	}
	if mutating {
		switch {
		case len(resp.Patch) > 0 && resp.PatchType == nil:
			return nil, invalid("webhook returned response.patch but not response.patchType")
		case len(resp.Patch) == 0 && resp.PatchType != nil:
			return nil, invalid("webhook returned response.patchType but not response.patch")
		case resp.PatchType != nil && *resp.PatchType == "":
			return nil, invalid("webhook returned invalid response.patchType of %q", "")
		}
	} else {
		if len(resp.Patch) > 0 {
			return nil, invalid("validating webhook may not return response.patch")
		}
		if resp.PatchType != nil {
			return nil, invalid("validating webhook may not return response.patchType")
		}
	}
	for _, k := range sortedStrings(resp.AuditAnnotations) {
		addAnnotation(ans, h.Name+"/"+k, resp.AuditAnnotations[k])
	}
	for _, wt := range resp.Warnings {
		if wt == "" || !utf8.ValidString(wt) || strings.IndexFunc(wt, unicode.IsControl) >= 0 {
			continue
		}
		dup := false
		for _, x := range ans.Warnings {
			dup = dup || x == wt
		}
		if !dup {
			ans.Warnings = append(ans.Warnings, wt)
		}
	}
	return resp, nil
}

// addAnnotation is the admission attributes' AddAnnotation: a key that is
// not "<prefix>/<name>" with a qualified name, or that is already set, is
// dropped.
func addAnnotation(ans *WebhookAnswer, key, value string) {
	if strings.Count(key, "/") != 1 || len(names.IsQualifiedName(key)) > 0 {
		return
	}
	if ans.AuditAnnotations == nil {
		ans.AuditAnnotations = map[string]string{}
	}
	if _, ok := ans.AuditAnnotations[key]; !ok {
		ans.AuditAnnotations[key] = value
	}
}

// answerMutating is callAttrMutatingHook and Dispatch's handling of its
// error for the i-th mutating webhook: the patched object (nil when
// unchanged) or the request's failure.
func (a *Admitter) answerMutating(req *Request, w *compiledWebhook, i int, target *WebhookTarget, r *WebhookResponse) (*WebhookAnswer, map[string]interface{}, *statusError) {
	ans := &WebhookAnswer{}
	changed := false
	obj, err := a.patch(req, w, i, target, r, ans)
	if obj != nil {
		changed = true
	}
	mut, _ := json.Marshal(struct {
		Configuration string `json:"configuration"`
		Webhook       string `json:"webhook"`
		Mutated       bool   `json:"mutated"`
	}{w.config.Metadata.Name, w.hook.Name, changed})
	if err == nil {
		addAnnotation(ans, fmt.Sprintf("mutation.webhook.admission.k8s.io/round_0_index_%d", i), string(mut))
		if ans.Outcome == "" {
			ans.Outcome = AnswerAllowed
			if changed {
				ans.Outcome = AnswerPatched
			}
		}
		return ans, obj, nil
	}
	ans2, se := failure(w, err, ans, fmt.Sprintf("failed-open.mutation.webhook.admission.k8s.io/round_0_index_%d", i))
	addAnnotation(ans2, fmt.Sprintf("mutation.webhook.admission.k8s.io/round_0_index_%d", i), string(mut))
	return ans2, nil, se
}

// patch verifies a mutating webhook's answer and applies its patch to the
// object at the version the webhook was called with; the result is the
// patched object at the request's version, nil when it is unchanged.
func (a *Admitter) patch(req *Request, w *compiledWebhook, i int, target *WebhookTarget, r *WebhookResponse, ans *WebhookAnswer) (map[string]interface{}, error) {
	result, err := a.verify(req, w, r, true, ans)
	if err != nil {
		return nil, err
	}
	if !result.Allowed {
		_, se := a.verdict(w, result, ans)
		return nil, se
	}
	if len(result.Patch) == 0 {
		return nil, nil
	}
	ops, err := jsonpatch.DecodePatch(result.Patch)
	if err != nil {
		return nil, &callError{w.hook.Name, "received undecodable patch in webhook response: " + err.Error()}
	}
	if len(ops) == 0 {
		return nil, nil
	}
	if req.Object == nil {
		return nil, internalStatus(fmt.Sprintf("admission webhook %q attempted to modify the object, which is not supported for this operation", w.hook.Name))
	}
	if *result.PatchType != "JSONPatch" {
		return nil, &callError{w.hook.Name, fmt.Sprintf("unsupported patch type %q", *result.PatchType)}
	}
	kind := GVK{Kind: target.Kind}
	kind.Group, kind.Version, _ = strings.Cut(target.APIVersion, "/")
	if !strings.Contains(target.APIVersion, "/") {
		kind.Group, kind.Version = "", target.APIVersion
	}
	before := a.versioned(req, kind).object
	js, err := json.Marshal(before)
	if err != nil {
		return nil, internalStatus(err.Error())
	}
	patched, err := applyBounded(ops, js)
	if err != nil {
		return nil, internalStatus(err.Error())
	}
	after, err := decodePatched(patched)
	if err != nil {
		return nil, err
	}
	pv, _ := json.Marshal(struct {
		Configuration string          `json:"configuration"`
		Webhook       string          `json:"webhook"`
		Patch         jsonpatch.Patch `json:"patch,omitempty"`
		PatchType     string          `json:"patchType,omitempty"`
	}{w.config.Metadata.Name, w.hook.Name, ops, "JSONPatch"})
	addAnnotation(ans, fmt.Sprintf("patch.webhook.admission.k8s.io/round_0_index_%d", i), string(pv))
	if reflect.DeepEqual(before, after) {
		return nil, nil
	}
	// Back to the request's version (the CRD's conversion None changes
	// apiVersion only).
	if kind != req.Kind {
		if av, ok := req.Object["apiVersion"]; ok {
			after["apiVersion"] = av
		}
	}
	return after, nil
}

func sortedStrings(m map[string]string) []string {
	out := keys.Sorted(m)
	return out
}

// applyBounded applies a JSON patch as the API server does, with
// json-patch's AccumulatedCopySizeLimit at limits.JSONPatchMaxCopyBytes
// (a process-wide setting there; crdlab keeps no such global): a patch
// with copy operations is applied one operation at a time, each copy's
// growth of the document counted against the limit.
func applyBounded(ops jsonpatch.Patch, doc []byte) ([]byte, error) {
	hasCopy := false
	for _, op := range ops {
		hasCopy = hasCopy || op.Kind() == "copy"
	}
	if !hasCopy {
		return ops.Apply(doc)
	}
	var copied int64
	start := 0
	for i, op := range ops {
		if op.Kind() != "copy" {
			continue
		}
		var err error
		if i > start {
			if doc, err = ops[start:i].Apply(doc); err != nil {
				return nil, err
			}
		}
		before := len(doc)
		if doc, err = ops[i : i+1].Apply(doc); err != nil {
			return nil, err
		}
		copied += int64(len(doc) - before)
		if copied > limits.JSONPatchMaxCopyBytes {
			return nil, jsonpatch.NewAccumulatedCopySizeError(limits.JSONPatchMaxCopyBytes, copied)
		}
		start = i + 1
	}
	if start < len(ops) {
		return ops[start:].Apply(doc)
	}
	return doc, nil
}
