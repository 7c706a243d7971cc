package admission

import (
	"fmt"
	"sort"

	"github.com/crdlab/crdlab/wire"
)

// Which admission webhooks a request is sent to:
// k8s.io/apiserver/pkg/admission/plugin/webhook/generic/webhook.go
// (Webhook.ShouldCallHook, Dispatch's exemption of admission configuration
// objects), the mutating and validating dispatchers (a hook whose matching
// fails ends the dispatch with that error) and webhook/matchconditions. The
// predicates (rules, namespace and object selectors, matchPolicy
// Equivalent) are those of policies (match.go). The webhooks are not called.

// WebhookTarget is what a webhook would be called with: the resource and
// kind the request matched as (another version of a CRD under matchPolicy
// Equivalent); APIVersion and Kind are the kind's (autoscaling/v1 Scale
// for a CRD's scale subresource). It is the wire type.
type WebhookTarget = wire.WebhookTarget

// WebhookCall is the verdict on one webhook of a configuration for one
// request: called (with CalledWith), skipped (with the reason), or an error
// that fails the request before any call is made (Code its HTTP status);
// Answer is what the API server makes of the webhook's recorded answer
// (Admitter.DispatchWebhooks). It is the wire type.
type WebhookCall = wire.WebhookCall

type compiledWebhook struct {
	config *WebhookConfiguration
	hook   *Webhook
	rules  []NamedRuleWithOperations
	v      *validator // its match conditions; nil without any
}

// compileWebhooks orders the configurations as the API server's
// configuration managers do (mutating ones first, as the admission chain
// runs them; each kind by name, webhooks in their order) and compiles
// their match conditions.
func compileWebhooks(configs []*WebhookConfiguration) ([]*compiledWebhook, error) {
	cs := append([]*WebhookConfiguration(nil), configs...)
	sort.SliceStable(cs, func(i, j int) bool {
		if cs[i].Mutating() != cs[j].Mutating() {
			return cs[i].Mutating()
		}
		return cs[i].Metadata.Name < cs[j].Metadata.Name
	})
	var out []*compiledWebhook
	for _, c := range cs {
		for i := range c.Webhooks {
			w := &c.Webhooks[i]
			cw := &compiledWebhook{config: c, hook: w}
			for _, r := range w.Rules {
				cw.rules = append(cw.rules, NamedRuleWithOperations{Operations: r.Operations, APIGroups: r.APIGroups,
					APIVersions: r.APIVersions, Resources: r.Resources, Scope: r.Scope})
			}
			if len(w.MatchConditions) > 0 {
				env, err := newEnvs(false)
				if err != nil {
					return nil, err
				}
				fp := "Fail"
				if w.FailurePolicy != nil {
					fp = *w.FailurePolicy
				}
				v := &validator{failurePolicy: fp}
				for _, m := range w.MatchConditions {
					v.matchConditions = append(v.matchConditions, condition{compiled: env.compile(m.Expression, envOpts{authorizer: true}, boolTypes), present: true, name: m.Name})
				}
				cw.v = v
			}
			out = append(out, cw)
		}
	}
	return out, nil
}

// exemptFromWebhooks is rules.IsExemptAdmissionConfigurationResource: the
// admission configuration kinds are not sent to webhooks from the API.
func exemptFromWebhooks(k GVK) bool {
	if k.Group != APIGroup {
		return false
	}
	switch k.Kind {
	case KindValidatingWebhooks, KindMutatingWebhooks, KindPolicy, KindBinding,
		"MutatingAdmissionPolicy", "MutatingAdmissionPolicyBinding":
		return true
	}
	return false
}

// Webhooks tells, for every webhook of the configurations (mutating ones
// first), whether req would be sent to it. The first error ends the
// dispatch: the webhooks after it are not reached.
func (a *Admitter) Webhooks(req *Request) []WebhookCall {
	out := make([]WebhookCall, 0, len(a.webhooks))
	failed := ""
	for _, w := range a.webhooks {
		c := WebhookCall{Configuration: w.config.Metadata.Name, Type: "validating", Webhook: w.hook.Name}
		if w.config.Mutating() {
			c.Type = "mutating"
		}
		switch {
		case failed != "":
			c.Skipped = "not reached: the request failed at " + failed
		case exemptFromWebhooks(req.Kind):
			c.Skipped = fmt.Sprintf("%s objects are not sent to webhooks", req.Kind.Kind)
		default:
			a.shouldCall(req, w, &c)
			if c.Error != "" {
				failed = fmt.Sprintf("webhook %q of %s %q", w.hook.Name, w.config.Kind, w.config.Metadata.Name)
			}
		}
		out = append(out, c)
	}
	return out
}

// shouldCall is Webhook.ShouldCallHook.
func (a *Admitter) shouldCall(req *Request, w *compiledWebhook, c *WebhookCall) {
	h := w.hook
	nsMatch, nsErr := a.matchNamespaceSelector(req, h.NamespaceSelector)
	if !nsMatch && nsErr == nil {
		ns := req.Namespace
		if ns == "" {
			ns = req.Name
		}
		c.Skipped = fmt.Sprintf("namespaceSelector does not match the labels of Namespace %q", ns)
		return
	}
	objMatch, objErr := matchObjectSelector(req, h.ObjectSelector)
	if !objMatch && objErr == nil {
		c.Skipped = "objectSelector matches neither the object nor the old object"
		return
	}
	matched, res, kind, err := a.matchesResourceRules(req, w.rules, h.MatchPolicy)
	if err != nil {
		c.Error, c.Code = internalError(err).Error(), 500
		return
	}
	if !matched {
		c.Skipped = "no rule matches " + describeRequest(req)
		if h.MatchPolicy == nil || *h.MatchPolicy != "Equivalent" {
			c.Skipped += " (matchPolicy Exact)"
		}
		return
	}
	if nsErr != nil {
		c.Error, c.Code = nsErr.Error(), 500
		return
	}
	if objErr != nil {
		c.Error, c.Code = objErr.Error(), 500
		return
	}
	if w.v != nil {
		var notes []string
		in := evalInput{va: a.versioned(req, kind), request: requestValue(req, req.Resource, kind), notes: &notes, authz: a.rbac.authzFor(req)}
		ok, failedName, err := w.v.matchNamed(in)
		if err != nil {
			c.Error, c.Code = forbidden(req, err.Error()), 403
			return
		}
		if !ok {
			if failedName != "" {
				c.Skipped = fmt.Sprintf("matchCondition %q is false", failedName)
			} else {
				c.Skipped = "matchConditions could not be evaluated (failurePolicy Ignore)"
			}
			return
		}
	}
	c.Called = true
	apiVersion := kind.Version
	if kind.Group != "" {
		apiVersion = kind.Group + "/" + kind.Version
	}
	c.CalledWith = &WebhookTarget{Group: res.Group, Version: res.Version, Resource: res.Resource, SubResource: req.SubResource,
		APIVersion: apiVersion, Kind: kind.Kind}
}

// forbidden is apierrors.NewForbidden's message for the request's resource
// and name.
func forbidden(req *Request, msg string) string {
	switch {
	case req.Resource.Group == "" && req.Resource.Resource == "":
		return "forbidden: " + msg
	case req.Name == "":
		return fmt.Sprintf("%s is forbidden: %s", groupResource(req.Resource), msg)
	}
	return fmt.Sprintf("%s %q is forbidden: %s", groupResource(req.Resource), req.Name, msg)
}

// describeRequest names the operation and resource of req for skip reasons.
func describeRequest(req *Request) string {
	r := req.Resource.Resource
	if req.SubResource != "" {
		r += "/" + req.SubResource
	}
	gv := req.Resource.Version
	if req.Resource.Group != "" {
		gv = req.Resource.Group + "/" + gv
	}
	scope := "cluster-scoped"
	if req.Namespace != "" && req.Resource != namespacesResource {
		scope = "namespaced"
	}
	return fmt.Sprintf("%s %s %s (%s)", req.Operation, gv, r, scope)
}
