package main

import (
	"fmt"
	"strings"
	"sync"

	"sigs.k8s.io/yaml"

	"github.com/crdlab/crdlab/admission"
	"github.com/crdlab/crdlab/internal/cli/inputs"
	"github.com/crdlab/crdlab/internal/yamldoc"
	"github.com/crdlab/crdlab/wire"
)

// Webhooks' recorded answers (--webhook-response WEBHOOK=FILE): each
// called webhook with an answer has it applied as the API server's
// dispatcher applies the answer of its call (admission.DispatchWebhooks).
// The mutating webhooks run with the mutating admission step, before the
// schema validation (their patches are validated); the validating ones
// after the validating policies.

const webhookResponseUsage = "a webhook's recorded admission.k8s.io/v1 AdmissionReview answer: `WEBHOOK=FILE`, WEBHOOK the webhook's name or configuration/name (repeatable); the answer is applied as the API server applies it"

// webhookAnswers are the recorded answers of a run, by WebhookKey.
type webhookAnswers struct {
	byKey    map[string]*admission.WebhookResponse
	mutating bool // one answers a mutating webhook
}

// loadWebhookAnswers reads the --webhook-response answers for the
// webhooks of adm; nil when none is given.
func loadWebhookAnswers(specs []string, reader inputs.Reader, adm *admission.Admitter) (*webhookAnswers, error) {
	if len(specs) == 0 {
		return nil, nil
	}
	out := &webhookAnswers{byKey: map[string]*admission.WebhookResponse{}}
	mutating := map[string]bool{}
	if adm != nil {
		for _, k := range adm.MutatingWebhookNames() {
			mutating[k] = true
		}
	}
	for _, s := range specs {
		name, file, ok := strings.Cut(s, "=")
		if !ok || name == "" || file == "" {
			return nil, fmt.Errorf("--webhook-response %q: expected WEBHOOK=FILE (the webhook's name, or configuration/name)", s)
		}
		if adm == nil {
			return nil, fmt.Errorf("--webhook-response %s: no webhook configuration is given (--policy or among the inputs)", name)
		}
		key, err := adm.ResolveWebhook(name)
		if err != nil {
			return nil, fmt.Errorf("--webhook-response %s: %v", s, err)
		}
		if _, dup := out.byKey[key]; dup {
			return nil, fmt.Errorf("--webhook-response %s: webhook %s has two answers", s, key)
		}
		data, err := reader.ReadFile(file, "AdmissionReview (--webhook-response)")
		if err != nil {
			return nil, err
		}
		docs, err := yamldoc.Split(data)
		if err == nil {
			n := 0
			for _, d := range docs {
				if !yamldoc.Empty(d.Data) {
					n++
				}
			}
			if n > 1 {
				return nil, &inputs.InputError{File: file, Err: fmt.Errorf("expected one admission.k8s.io/v1 AdmissionReview, found %d documents", n)}
			}
		}
		js, err := yaml.YAMLToJSON(data)
		if err != nil {
			return nil, &inputs.InputError{File: file, Err: fmt.Errorf("expected an admission.k8s.io/v1 AdmissionReview with a response: %v", err)}
		}
		r, err := admission.DecodeWebhookResponse(js)
		if err != nil {
			return nil, &inputs.InputError{File: file, Err: err}
		}
		out.byKey[key] = r
		out.mutating = out.mutating || mutating[key]
	}
	return out, nil
}

func (w *webhookAnswers) answers() map[string]*admission.WebhookResponse {
	if w == nil {
		return nil
	}
	return w.byKey
}

// webhookMutation is what the mutating webhooks did to a document, kept
// from the mutating step (keyed by the document validated) for the entry.
type webhookMutation struct {
	mu   sync.Mutex
	done map[*inputs.Document]*admission.WebhookDispatch
	// targets: each CRD's defaulting, built once.
	targets map[string]*mutationTarget
}

func (m *webhookMutation) put(d *inputs.Document, res *admission.WebhookDispatch) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.done[d] = res
}

func (m *webhookMutation) take(d *inputs.Document) *admission.WebhookDispatch {
	m.mu.Lock()
	defer m.mu.Unlock()
	res := m.done[d]
	delete(m.done, d)
	return res
}

func (m *webhookMutation) target(e *inputs.Entry) (admission.MutationTarget, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	name := e.Def.Metadata.Name
	if t, ok := m.targets[name]; ok {
		return t.t, t.err
	}
	t, err := admission.TargetFor(e.Def)
	m.targets[name] = &mutationTarget{t, err}
	return t, err
}

// mutateAll is validate's mutating admission step: the mutating policies,
// then the mutating webhooks with their recorded answers.
func (p *policyRun) mutateAll(d *inputs.Document) (*inputs.Document, *wire.MutationOutcome) {
	nd, mo := d, (*wire.MutationOutcome)(nil)
	if p.mut != nil {
		nd, mo = p.mutate(d)
		if mo != nil && !mo.Allowed {
			return nd, mo
		}
	}
	if p.hooked == nil {
		return nd, mo
	}
	return p.mutateWebhooks(nd, mo)
}

// mutateWebhooks runs the mutating webhooks on the object of d (its
// schema's defaults applied, as the API server decodes it): a patch
// replaces the document, a failure refuses it.
func (p *policyRun) mutateWebhooks(d *inputs.Document, mo *wire.MutationOutcome) (*inputs.Document, *wire.MutationOutcome) {
	req, ok := p.webhookRequest(d)
	if !ok {
		return d, mo
	}
	res := p.adm.DispatchWebhooks(&req, true, p.webhookAnswers.answers())
	if !res.Allowed {
		out := &wire.MutationOutcome{Message: res.Message, Reason: res.Reason, Code: res.Code}
		if mo != nil {
			out.Mutations, out.Reinvoked, out.Notes = mo.Mutations, mo.Reinvoked, mo.Notes
		}
		p.hooked.put(d, &res)
		return d, out
	}
	nd := d
	if res.Patched && req.Operation != "DELETE" {
		if x, err := d.WithObject(res.Object); err == nil {
			nd = x
			if mo != nil {
				mo.Object = res.Object
			}
		}
	}
	p.hooked.put(nd, &res)
	return nd, mo
}

// webhookRequest is the request the mutating webhooks get for d: an
// object of a CRD of the run (its schema's defaults applied, as the API
// server decodes it) or of a built-in kind (builtinRequest); ok is false
// for the others.
func (p *policyRun) webhookRequest(d *inputs.Document) (admission.Request, bool) {
	e, _ := p.cat.Lookup(d.APIVersion, d.Kind)
	if e == nil || e.Def == nil {
		return p.builtinRequest(d)
	}
	if rep := e.CRD.Report(); !rep.Valid() {
		return admission.Request{}, false
	}
	js, err := d.ObjectJSON()
	if err != nil {
		return admission.Request{}, false
	}
	obj, err := admission.DecodeObject(js)
	if err != nil || obj == nil {
		return admission.Request{}, false // the validation reports it
	}
	if t, err := p.hooked.target(e); err == nil && t.Default != nil {
		t.Default(obj)
	}
	req := p.request(e, obj, d.Name, d.Namespace)
	if req.Operation == "UPDATE" && p.oldObject != nil {
		old, _ := admission.DecodeObject(mustJSON(p.oldObject))
		if t, err := p.hooked.target(e); err == nil && old != nil && t.Default != nil {
			t.Default(old)
		}
		req.OldObject = old
	}
	if req.Operation == "DELETE" {
		req.Object, req.OldObject = nil, obj
	}
	return req, true
}

// mutatingCalls are the mutating webhooks of an entry's request as the
// mutating step ran them, or, when it did not run, run here on the
// validated object (req.Object becomes the patched one).
func (p *policyRun) mutatingCalls(d *inputs.Document, req *admission.Request) *admission.WebhookDispatch {
	if p.hooked != nil {
		if res := p.hooked.take(d); res != nil {
			return res
		}
	}
	// Not run by the mutating step (a CRD among the inputs): answered
	// here, the patched object going on to the validating admission.
	res := p.adm.DispatchWebhooks(req, true, p.webhookAnswers.answers())
	if res.Patched {
		req.Object = res.Object
	}
	return &res
}

// failedAt names the webhook whose call or matching failed the dispatch.
func failedAt(calls []admission.WebhookCall) string {
	for _, c := range calls {
		if c.Error != "" || (c.Answer != nil && (c.Answer.Outcome == admission.AnswerDenied || c.Answer.Outcome == admission.AnswerFailed)) {
			kind := "ValidatingWebhookConfiguration"
			if c.Type == "mutating" {
				kind = "MutatingWebhookConfiguration"
			}
			return fmt.Sprintf("webhook %q of %s %q", c.Webhook, kind, c.Configuration)
		}
	}
	return "a webhook"
}

// validatingNotReached are the validating webhooks of the admitter,
// skipped with reason.
func validatingNotReached(adm *admission.Admitter, reason string) []admission.WebhookCall {
	var out []admission.WebhookCall
	for _, k := range adm.ValidatingWebhookNames() {
		conf, hook, _ := strings.Cut(k, "/")
		out = append(out, admission.WebhookCall{Configuration: conf, Type: "validating", Webhook: hook, Skipped: reason})
	}
	return out
}

// prependWarnings puts warnings before the entry's (mutating admission's
// come before the validation's).
func prependWarnings(r *inputs.Result, ws []string) {
	if len(ws) == 0 {
		return
	}
	r.Warnings = append(append([]string(nil), ws...), r.Warnings...)
	if r.WarningPositions != nil {
		r.WarningPositions = append(make([]*wire.Position, len(ws)), r.WarningPositions...)
	}
}

// addWarnings appends warnings to the entry's.
func addWarnings(r *inputs.Result, ws []string) {
	for _, w := range ws {
		r.Warnings = append(r.Warnings, w)
		if r.WarningPositions != nil {
			r.WarningPositions = append(r.WarningPositions, nil)
		}
	}
}

// failWith makes the entry invalid with the API server's status.
func failWith(r *inputs.Result, message, reason string, code int) {
	if r.Admission == nil {
		r.Admission = &wire.AdmissionOutcome{}
	}
	r.Admission.Allowed, r.Admission.Message, r.Admission.Reason, r.Admission.Code = false, message, reason, code
	r.Status = wire.StatusInvalid
	r.Errors = append(r.Errors, wire.LocatedError{ErrorReport: wire.ErrorReport{Type: "AdmissionDenied", Detail: message, Message: message}, Line: r.Line})
}
