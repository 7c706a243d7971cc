//go:build !versions_oracle

package upstream

import (
	"context"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"time"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	utilnet "k8s.io/apimachinery/pkg/util/net"
	"k8s.io/apiserver/pkg/admission"
	"k8s.io/apiserver/pkg/admission/plugin/webhook/mutating"
	webhooktesting "k8s.io/apiserver/pkg/admission/plugin/webhook/testing"
	"k8s.io/apiserver/pkg/admission/plugin/webhook/validating"
	auditinternal "k8s.io/apiserver/pkg/apis/audit"
	"k8s.io/apiserver/pkg/audit"
	"k8s.io/apiserver/pkg/endpoints/filters"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
)

// WebhookServer is an HTTPS server answering each webhook with its
// recorded AdmissionReview (Answers, keyed by "configuration/webhook"): the
// response's uid is replaced by the request's when it repeats the recorded
// request's uid (or the answer records no request), as the webhook that
// was recorded answered the call it got.
type WebhookServer struct {
	srv *httptest.Server
	CA  []byte // PEM

	mu      sync.Mutex
	Answers map[string][]byte
}

// NewWebhookServer starts the server; Close stops it.
func NewWebhookServer() *WebhookServer {
	s := &WebhookServer{Answers: map[string][]byte{}}
	s.srv = httptest.NewTLSServer(http.HandlerFunc(s.serve))
	s.CA = pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: s.srv.Certificate().Raw})
	return s
}

// Close stops the server.
func (s *WebhookServer) Close() { s.srv.Close() }

// URL is the address of the webhook key.
func (s *WebhookServer) URL(key string) string { return s.srv.URL + "/" + key }

// SetAnswers replaces the recorded answers.
func (s *WebhookServer) SetAnswers(a map[string][]byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.Answers = a
}

func (s *WebhookServer) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	var review struct {
		Request struct {
			UID string `json:"uid"`
		} `json:"request"`
	}
	_ = json.Unmarshal(body, &review)
	s.mu.Lock()
	answer, ok := s.Answers[strings.TrimPrefix(r.URL.Path, "/")]
	s.mu.Unlock()
	if !ok {
		http.Error(w, "no recorded answer", http.StatusNotFound)
		return
	}
	var m map[string]interface{}
	if err := json.Unmarshal(answer, &m); err == nil {
		resp, _ := m["response"].(map[string]interface{})
		var recorded interface{}
		if req, ok := m["request"].(map[string]interface{}); ok {
			recorded = req["uid"]
		}
		if resp != nil && (m["request"] == nil || resp["uid"] == recorded) {
			resp["uid"] = review.Request.UID
		}
		answer, _ = json.Marshal(m)
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(answer)
}

// WebhookDispatchOutput is what the API server's webhook plugin made of a
// request: its error (status message, reason, code), the warnings of the
// response, the audit annotations of the request (level Request) and the
// object after the mutating webhooks.
type WebhookDispatchOutput struct {
	Denied           bool
	Message, Reason  string
	Code             int
	Warnings         []string
	AuditAnnotations map[string]string
	Object           map[string]interface{}
}

// DispatchWebhooks runs k8s.io/apiserver's MutatingAdmissionWebhook
// (mutating) or ValidatingAdmissionWebhook plugin on the request of in,
// with the webhook configurations configs (JSON objects, all of the
// plugin's kind; their clientConfigs point at the server), inside the
// API server's warning recorder filter.
func DispatchWebhooks(in *AdmissionInput, configs [][]byte, mutatingHooks bool) (*WebhookDispatchOutput, error) {
	var objs []runtime.Object
	for _, c := range configs {
		if mutatingHooks {
			o := &admissionregistrationv1.MutatingWebhookConfiguration{}
			if err := json.Unmarshal(c, o); err != nil {
				return nil, err
			}
			objs = append(objs, o)
		} else {
			o := &admissionregistrationv1.ValidatingWebhookConfiguration{}
			if err := json.Unmarshal(c, o); err != nil {
				return nil, err
			}
			objs = append(objs, o)
		}
	}
	for _, o := range in.Objects {
		if o["apiVersion"] == "v1" && o["kind"] == "Namespace" {
			ns := &corev1.Namespace{}
			if err := runtime.DefaultUnstructuredConverter.FromUnstructured(o, ns); err != nil {
				return nil, err
			}
			objs = append(objs, ns)
		}
	}
	client := fake.NewSimpleClientset(objs...)
	factory := informers.NewSharedInformerFactory(client, 0)
	stop := make(chan struct{})
	defer close(stop)

	var run func(ctx context.Context, attr admission.Attributes, o admission.ObjectInterfaces) error
	base, _ := url.Parse("https://127.0.0.1")
	if mutatingHooks {
		wh, err := mutating.NewMutatingWebhook(nil)
		if err != nil {
			return nil, err
		}
		wh.SetAuthenticationInfoResolverWrapper(webhooktesting.Wrapper(webhooktesting.NewAuthenticationInfoResolver(new(int32))))
		wh.SetServiceResolver(webhooktesting.NewServiceResolver(*base))
		wh.SetExternalKubeClientSet(client)
		wh.SetExternalKubeInformerFactory(factory)
		if err := wh.ValidateInitialization(); err != nil {
			return nil, err
		}
		run = admission.WithAudit(wh).(admission.MutationInterface).Admit
	} else {
		wh, err := validating.NewValidatingAdmissionWebhook(nil)
		if err != nil {
			return nil, err
		}
		wh.SetAuthenticationInfoResolverWrapper(webhooktesting.Wrapper(webhooktesting.NewAuthenticationInfoResolver(new(int32))))
		wh.SetServiceResolver(webhooktesting.NewServiceResolver(*base))
		wh.SetExternalKubeClientSet(client)
		wh.SetExternalKubeInformerFactory(factory)
		if err := wh.ValidateInitialization(); err != nil {
			return nil, err
		}
		run = admission.WithAudit(wh).(admission.ValidationInterface).Validate
	}
	factory.Start(stop)
	factory.WaitForCacheSync(stop)

	var obj, old runtime.Object
	var u *unstructured.Unstructured
	if in.Object != nil {
		u = &unstructured.Unstructured{Object: runtime.DeepCopyJSON(in.Object)}
		obj = u
	}
	if in.OldObject != nil {
		old = &unstructured.Unstructured{Object: runtime.DeepCopyJSON(in.OldObject)}
	}
	attr := admission.NewAttributesRecord(obj, old, in.Kind, in.Namespace, in.Name, in.Resource,
		in.SubResource, admission.Operation(in.Operation), in.Options, in.DryRun, in.User)
	o := &dispatchInterfaces{objectInterfaces{equivalents: in.Equivalents, subresource: in.SubResource}}

	var err error
	var ac *audit.AuditContext
	h := filters.WithWarningRecorder(http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(audit.WithAuditContext(r.Context()), 30*time.Second)
		defer cancel()
		ac = audit.AuditContextFrom(ctx)
		if err = ac.Init(audit.RequestAuditConfig{Level: auditinternal.LevelRequest}, nil); err != nil {
			return
		}
		// The sources sync in the background: the plugin answers
		// "not yet ready" until then.
		for i := 0; i < 100; i++ {
			err = run(ctx, attr, o)
			if err == nil || !strings.Contains(err.Error(), "not yet ready to handle request") {
				return
			}
			time.Sleep(20 * time.Millisecond)
		}
	}))
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/", nil))
	out := &WebhookDispatchOutput{}
	if ws, errs := utilnet.ParseWarningHeaders(rec.Header()["Warning"]); len(errs) == 0 {
		for _, w := range ws {
			out.Warnings = append(out.Warnings, w.Text)
		}
	} else {
		return nil, fmt.Errorf("warning headers: %v", errs)
	}
	out.AuditAnnotations = ac.GetEventAnnotations()
	if u != nil {
		out.Object = u.Object
	}
	if err != nil {
		out.Denied = true
		out.Message = err.Error()
		if se, ok := err.(apierrors.APIStatus); ok {
			st := se.Status()
			out.Message, out.Reason, out.Code = st.Message, string(st.Reason), int(st.Code)
		}
	}
	return out, nil
}

// dispatchInterfaces are the object interfaces of a custom resource for the
// mutating dispatcher: objectInterfaces' with a defaulter that does nothing
// (crdlab defaults the object when it validates it) and unstructured
// typing.
type dispatchInterfaces struct{ objectInterfaces }

func (dispatchInterfaces) GetObjectDefaulter() runtime.ObjectDefaulter { return noDefaults{} }
func (dispatchInterfaces) GetObjectTyper() runtime.ObjectTyper         { return unstructuredTyper{} }

type noDefaults struct{}

func (noDefaults) Default(runtime.Object) {}
