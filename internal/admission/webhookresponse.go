package admission

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// A webhook's recorded admission.k8s.io AdmissionReview answer, as the
// API server's webhook client reads it (k8s.io/apiserver v0.37.2
// pkg/admission/plugin/webhook/request/admissionreview.go
// VerifyAdmissionResponse reads what the client decoded).

// WebhookResponse is a recorded AdmissionReview answer of one webhook.
type WebhookResponse struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	// Request is the recorded request, when the file holds the exchange:
	// its uid is the one the response must repeat.
	Request *struct {
		UID string `json:"uid"`
	} `json:"request,omitempty"`
	// Response is nil when the answer has none.
	Response *ReviewResponse `json:"response,omitempty"`
	// DecodeError is why the API server's client cannot decode the
	// answer (a field of the wrong type, bad base64): the call fails.
	DecodeError string `json:"-"`
}

// ReviewResponse is an AdmissionReview's response.
type ReviewResponse struct {
	UID     string          `json:"uid"`
	Allowed bool            `json:"allowed"`
	Result  *ResponseStatus `json:"status,omitempty"`
	// Patch is the decoded (base64 in the file) patch.
	Patch            []byte            `json:"patch,omitempty"`
	PatchType        *string           `json:"patchType,omitempty"`
	AuditAnnotations map[string]string `json:"auditAnnotations,omitempty"`
	Warnings         []string          `json:"warnings,omitempty"`
}

// ResponseStatus is the metav1.Status of a response: the denial's
// message, reason and HTTP code.
type ResponseStatus struct {
	Status  string `json:"status,omitempty"`
	Message string `json:"message,omitempty"`
	Reason  string `json:"reason,omitempty"`
	Code    int32  `json:"code,omitempty"`
}

// DecodeWebhookResponse reads a recorded AdmissionReview answer (JSON; the
// caller converts YAML). What is not an AdmissionReview answer at all (not
// an object; another kind without a response) is an error; everything
// else is decided when the webhook is called (Admitter.DispatchWebhooks),
// as the API server decides it: a wrong apiVersion or kind, a missing
// response, a field the client cannot decode (WebhookResponse.DecodeError)
// fail the call under the webhook's failure policy. Field names are
// matched case-sensitively, as the API server's decoder matches them.
func DecodeWebhookResponse(js []byte) (*WebhookResponse, error) {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(js, &top); err != nil || top == nil {
		return nil, fmt.Errorf("expected an admission.k8s.io/v1 AdmissionReview object with a response")
	}
	_, hasResponse := top["response"]
	var kind string
	_ = json.Unmarshal(top["kind"], &kind)
	if kind != "AdmissionReview" && !hasResponse {
		what := "kind " + fmt.Sprintf("%q", kind)
		if kind == "" {
			what = "no kind"
		}
		return nil, fmt.Errorf("expected an admission.k8s.io/v1 AdmissionReview with a response, found %s and no response", what)
	}
	var r WebhookResponse
	_ = json.Unmarshal(top["apiVersion"], &r.APIVersion)
	r.Kind = kind
	if err := json.Unmarshal(exactFields(js), &r); err != nil {
		r.DecodeError = decodeErrorText(err)
	}
	return &r, nil
}

// exactFields drops from an answer the keys that match a field of the
// review, request, response or status only when case is ignored (Go's
// encoding/json would take them; the API server's decoder does not).
func exactFields(js []byte) []byte {
	var v interface{}
	d := json.NewDecoder(bytes.NewReader(js))
	d.UseNumber()
	if d.Decode(&v) != nil {
		return js
	}
	fields := map[string][]string{
		"":                {"apiVersion", "kind", "request", "response"},
		"request":         {"uid"},
		"response":        {"uid", "allowed", "status", "patch", "patchType", "auditAnnotations", "warnings"},
		"response.status": {"status", "message", "reason", "code"},
	}
	var walk func(o map[string]interface{}, path string)
	walk = func(o map[string]interface{}, path string) {
		for k, sub := range o {
			for _, f := range fields[path] {
				if k != f && strings.EqualFold(k, f) {
					delete(o, k)
				}
			}
			if m, ok := sub.(map[string]interface{}); ok {
				p := k
				if path != "" {
					p = path + "." + k
				}
				if _, known := fields[p]; known {
					walk(m, p)
				}
			}
		}
	}
	if m, ok := v.(map[string]interface{}); ok {
		walk(m, "")
	}
	out, err := json.Marshal(v)
	if err != nil {
		return js
	}
	return out
}

// decodeErrorText is the API server's decoder's message for an answer it
// cannot decode into admission/v1 types (encoding/json's, with upstream's
// type names).
func decodeErrorText(err error) string {
	var te *json.UnmarshalTypeError
	if !errors.As(err, &te) {
		return strings.TrimPrefix(err.Error(), "json: ")
	}
	upstreamType := map[string]string{
		"request":            "v1.AdmissionRequest",
		"request.uid":        "types.UID",
		"response":           "v1.AdmissionResponse",
		"response.uid":       "types.UID",
		"response.status":    "v1.Status",
		"response.patchType": "v1.PatchType",
	}
	typ, ok := upstreamType[te.Field]
	if !ok {
		typ = te.Type.String()
	}
	owner := "AdmissionReview"
	switch {
	case strings.HasPrefix(te.Field, "response.status."):
		owner = "Status"
	case strings.HasPrefix(te.Field, "response."):
		owner = "AdmissionResponse"
	case strings.HasPrefix(te.Field, "request."):
		owner = "AdmissionRequest"
	}
	return fmt.Sprintf("json: cannot unmarshal %s into Go struct field %s.%s of type %s", te.Value, owner, te.Field, typ)
}

// WebhookKey names a webhook of a configuration: "configuration/webhook".
func WebhookKey(configuration, webhook string) string { return configuration + "/" + webhook }

// WebhookNames are the keys (WebhookKey) of the admitter's webhooks, in
// dispatch order.
func (a *Admitter) WebhookNames() []string {
	out := make([]string, len(a.webhooks))
	for i, w := range a.webhooks {
		out[i] = WebhookKey(w.config.Metadata.Name, w.hook.Name)
	}
	return out
}

// MutatingWebhookNames and ValidatingWebhookNames are the keys of the
// admitter's mutating and validating webhooks, in dispatch order.
func (a *Admitter) MutatingWebhookNames() []string { return a.webhookNames(true) }

// ValidatingWebhookNames: see MutatingWebhookNames.
func (a *Admitter) ValidatingWebhookNames() []string { return a.webhookNames(false) }

func (a *Admitter) webhookNames(mutating bool) []string {
	var out []string
	for _, w := range a.webhooks {
		if w.config.Mutating() == mutating {
			out = append(out, WebhookKey(w.config.Metadata.Name, w.hook.Name))
		}
	}
	return out
}

// ResolveWebhook finds the webhook a --webhook-response names: a webhook's
// name, or "configuration/name" when several configurations have a webhook
// of that name.
func (a *Admitter) ResolveWebhook(name string) (string, error) {
	var found []string
	for _, k := range a.WebhookNames() {
		if k == name {
			return k, nil
		}
		if _, hook, _ := strings.Cut(k, "/"); hook == name {
			found = append(found, k)
		}
	}
	switch len(found) {
	case 1:
		return found[0], nil
	case 0:
		known := a.WebhookNames()
		if len(known) == 0 {
			return "", fmt.Errorf("no webhook named %q: no webhook configuration is given", name)
		}
		return "", fmt.Errorf("no webhook named %q; the webhooks are %s", name, strings.Join(known, ", "))
	}
	return "", fmt.Errorf("webhook name %q is ambiguous: name one of %s", name, strings.Join(found, ", "))
}
