package admission

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
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
// caller converts YAML). What the API server's client cannot decode at all
// (not an object, a field of the wrong type) is an error; a wrong
// apiVersion or kind, or a missing response, is the webhook's failure and
// is decided when the webhook is called (Admitter.DispatchWebhooks).
func DecodeWebhookResponse(js []byte) (*WebhookResponse, error) {
	var probe map[string]json.RawMessage
	if err := json.Unmarshal(js, &probe); err != nil || probe == nil {
		return nil, fmt.Errorf("expected an admission.k8s.io/v1 AdmissionReview object with a response")
	}
	_, hasResponse := probe["response"]
	var kind string
	_ = json.Unmarshal(probe["kind"], &kind)
	if kind != "AdmissionReview" && !hasResponse {
		what := "kind " + fmt.Sprintf("%q", kind)
		if kind == "" {
			what = "no kind"
		}
		return nil, fmt.Errorf("expected an admission.k8s.io/v1 AdmissionReview with a response, found %s and no response", what)
	}
	var r WebhookResponse
	dec := json.NewDecoder(bytes.NewReader(js))
	if err := dec.Decode(&r); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) && te.Field != "" {
			return nil, fmt.Errorf("not an AdmissionReview: %s: expected %s, found %s", te.Field, jsonKind(te.Type), te.Value)
		}
		return nil, fmt.Errorf("not an AdmissionReview: %s", strings.TrimPrefix(err.Error(), "json: "))
	}
	return &r, nil
}

// jsonKind names the JSON value a Go type decodes from.
func jsonKind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Bool:
		return "a boolean"
	case reflect.String:
		return "a string"
	case reflect.Int, reflect.Int32, reflect.Int64:
		return "an integer"
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			return "a base64 string"
		}
		return "a list"
	case reflect.Map, reflect.Struct, reflect.Pointer:
		return "an object"
	}
	return t.String()
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
