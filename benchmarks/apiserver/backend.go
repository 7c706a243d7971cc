package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/crdlab/crdlab/crdtest"
	"github.com/crdlab/crdlab/engine/field"
)

// apiBackend serves crdtest's requests with a real kube-apiserver, as
// OpenShift's envtest runner sends them through controller-runtime's
// client: the CRD is installed (and waited for) before its first request,
// a request under another variant of the same CRD (initialCRDPatches,
// another feature set's manifest) updates it and waits until the API server
// serves the new schema, objects are deleted after each case.
type apiBackend struct {
	c   *cluster
	ctx context.Context

	mu   sync.Mutex
	crds map[string]*crdState // by CRD name

	installs, updates int
	requests          atomic.Int64
	progress          bool // print progress to stderr every 1000 requests
	start             time.Time
	installTime       time.Duration // creating CRDs until served
	updateTime        time.Duration // updating CRDs until the new schema is served
}

type crdState struct {
	mu         sync.RWMutex // held for reading by requests, for writing by a switch
	installed  string       // the CRD JSON installed ("" none)
	installErr string       // the API server's rejection of installed
	group      string
	plural     string
	namespaced bool
	versions   []string
	kind       string
	exists     bool // created in the API server
}

func newAPIBackend(ctx context.Context, c *cluster) *apiBackend {
	return &apiBackend{c: c, ctx: ctx, crds: map[string]*crdState{}, start: time.Now()}
}

// crdHead is what the backend reads of a CRD.
type crdHead struct {
	Metadata struct {
		Name            string `json:"name"`
		ResourceVersion string `json:"resourceVersion,omitempty"`
	} `json:"metadata"`
	Spec struct {
		Group string `json:"group"`
		Scope string `json:"scope"`
		Names struct {
			Plural string `json:"plural"`
			Kind   string `json:"kind"`
		} `json:"names"`
		Versions []struct {
			Name   string `json:"name"`
			Served bool   `json:"served"`
		} `json:"versions"`
	} `json:"spec"`
	Status struct {
		Conditions []struct {
			Type   string `json:"type"`
			Status string `json:"status"`
		} `json:"conditions"`
	} `json:"status"`
}

// status is the part of metav1.Status the backend reads.
type status struct {
	Kind    string `json:"kind"`
	Message string `json:"message"`
	Details *struct {
		Causes []struct {
			Type    string `json:"reason"`
			Message string `json:"message"`
			Field   string `json:"field"`
		} `json:"causes"`
	} `json:"details"`
}

// call sends one request; it returns the status code, body and warnings.
func (b *apiBackend) call(method, path string, body []byte) (int, []byte, []string, error) {
	var r io.Reader
	if body != nil {
		r = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(b.ctx, method, b.c.url+path, r)
	if err != nil {
		return 0, nil, nil, err
	}
	req.Header.Set("Authorization", "Bearer "+b.c.token)
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := b.c.client.Do(req)
	if err != nil {
		return 0, nil, nil, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	var warnings []string
	for _, h := range resp.Header.Values("Warning") {
		warnings = append(warnings, parseWarning(h))
	}
	return resp.StatusCode, data, warnings, err
}

// parseWarning extracts the text of a `299 - "text"` Warning header.
func parseWarning(h string) string {
	if i := strings.Index(h, `"`); i >= 0 {
		if s, err := strconv.Unquote(h[i:]); err == nil {
			return s
		}
	}
	return h
}

func statusOf(data []byte) (string, field.ErrorList) {
	var s status
	if json.Unmarshal(data, &s) != nil || s.Kind != "Status" {
		return strings.TrimSpace(string(data)), nil
	}
	var errs field.ErrorList
	if s.Details != nil {
		for _, c := range s.Details.Causes {
			// The cause's message is the error's body: "<type label>:
			// [<value>: ]<detail>"; the label is dropped.
			t := field.ErrorType(c.Type)
			errs = append(errs, &field.Error{Type: t, Field: c.Field, Detail: strings.TrimPrefix(c.Message, t.String()+": ")})
		}
	}
	return s.Message, errs
}

// ensureCRD makes crdJSON the installed CRD of its name and returns its
// state read-locked (the caller unlocks); an API server's rejection is
// returned as the state's installErr.
func (b *apiBackend) ensureCRD(crdJSON []byte) (*crdState, error) {
	var head crdHead
	if err := json.Unmarshal(crdJSON, &head); err != nil {
		return nil, fmt.Errorf("CRD: %v", err)
	}
	b.mu.Lock()
	st := b.crds[head.Metadata.Name]
	if st == nil {
		st = &crdState{}
		b.crds[head.Metadata.Name] = st
	}
	b.mu.Unlock()
	for {
		st.mu.RLock()
		if st.installed == string(crdJSON) {
			return st, nil
		}
		st.mu.RUnlock()
		st.mu.Lock()
		if st.installed != string(crdJSON) {
			if err := b.switchCRD(st, head, crdJSON); err != nil {
				st.mu.Unlock()
				return nil, err
			}
		}
		st.mu.Unlock()
	}
}

const crdPath = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions"

// switchCRD installs crdJSON in place of st's CRD (write-locked).
func (b *apiBackend) switchCRD(st *crdState, head crdHead, crdJSON []byte) error {
	start := time.Now()
	if st.exists && !sameVersions(st.installed, head) {
		// Another CRD file (another feature set's manifest): OpenShift's
		// runner uninstalls a suite's CRD and installs the next one; an
		// update could be refused (a stored version dropped).
		if err := b.deleteCRD(head.Metadata.Name); err != nil {
			return err
		}
		st.exists = false
	}
	st.installErr = ""
	st.group, st.plural, st.kind, st.namespaced = head.Spec.Group, head.Spec.Names.Plural, head.Spec.Names.Kind, head.Spec.Scope != "Cluster"
	st.versions = nil
	for _, v := range head.Spec.Versions {
		if v.Served {
			st.versions = append(st.versions, v.Name)
		}
	}
	if !st.exists {
		// Create, then wait until Established and the resource is served.
		code, data, _, err := b.call("POST", crdPath, crdJSON)
		if err != nil {
			return err
		}
		if code == http.StatusConflict {
			// Left by an earlier run: delete it first.
			if err := b.deleteCRD(head.Metadata.Name); err != nil {
				return err
			}
			code, data, _, err = b.call("POST", crdPath, crdJSON)
			if err != nil {
				return err
			}
		}
		st.installed = string(crdJSON)
		if code != http.StatusCreated {
			st.installErr, _ = statusOf(data)
			return nil
		}
		st.exists = true
		if err := b.waitServed(st, head.Metadata.Name); err != nil {
			return err
		}
		b.mu.Lock()
		b.installs++
		b.installTime += time.Since(start)
		b.mu.Unlock()
		return nil
	}
	// Update in place with a sentinel property (as OpenShift's runner
	// does), wait until an object using it is accepted, then remove it and
	// wait until it is unknown again: the new schema is then served.
	token := "s" + strconv.FormatInt(time.Now().UnixNano(), 36)
	withSentinel, err := addSentinel(crdJSON, token)
	if err != nil {
		return err
	}
	prevErr := st.installErr
	if msg, err := b.putCRD(head.Metadata.Name, withSentinel); err != nil {
		return err
	} else if msg != "" {
		// Rejected: the previous CRD stays installed (if any).
		st.installed = string(crdJSON)
		st.installErr = msg
		if prevErr != "" {
			return fmt.Errorf("no valid CRD %s installed", head.Metadata.Name)
		}
		return nil
	}
	if err := b.waitSentinel(st, head, token, true); err != nil {
		return err
	}
	if msg, err := b.putCRD(head.Metadata.Name, crdJSON); err != nil || msg != "" {
		return fmt.Errorf("restoring CRD %s without its sentinel: %v%s", head.Metadata.Name, err, msg)
	}
	st.installed = string(crdJSON)
	if err := b.waitSentinel(st, head, token, false); err != nil {
		return err
	}
	b.mu.Lock()
	b.updates++
	b.updateTime += time.Since(start)
	b.mu.Unlock()
	return nil
}

// sameVersions reports whether the installed CRD has head's version names.
func sameVersions(installed string, head crdHead) bool {
	var old crdHead
	if json.Unmarshal([]byte(installed), &old) != nil || len(old.Spec.Versions) != len(head.Spec.Versions) {
		return false
	}
	for i, v := range old.Spec.Versions {
		if v.Name != head.Spec.Versions[i].Name {
			return false
		}
	}
	return true
}

func (b *apiBackend) deleteCRD(name string) error {
	code, data, _, err := b.call("DELETE", crdPath+"/"+name, nil)
	if err != nil {
		return err
	}
	if code != http.StatusOK && code != http.StatusAccepted && code != http.StatusNotFound {
		msg, _ := statusOf(data)
		return fmt.Errorf("deleting CRD %s: %s", name, msg)
	}
	deadline := time.Now().Add(time.Minute)
	for time.Now().Before(deadline) {
		code, _, _, err := b.call("GET", crdPath+"/"+name, nil)
		if err != nil {
			return err
		}
		if code == http.StatusNotFound {
			return nil
		}
		time.Sleep(20 * time.Millisecond)
	}
	return fmt.Errorf("CRD %s was not deleted", name)
}

// putCRD replaces the installed CRD's spec; it returns the API server's
// rejection message.
func (b *apiBackend) putCRD(name string, crdJSON []byte) (string, error) {
	for attempt := 0; attempt < 10; attempt++ {
		code, data, _, err := b.call("GET", crdPath+"/"+name, nil)
		if err != nil {
			return "", err
		}
		if code != http.StatusOK {
			msg, _ := statusOf(data)
			return "", fmt.Errorf("GET CRD %s: %s", name, msg)
		}
		var cur map[string]interface{}
		var next map[string]interface{}
		json.Unmarshal(data, &cur)
		if err := json.Unmarshal(crdJSON, &next); err != nil {
			return "", err
		}
		cur["spec"] = next["spec"]
		body, _ := json.Marshal(cur)
		code, data, _, err = b.call("PUT", crdPath+"/"+name, body)
		if err != nil {
			return "", err
		}
		if code == http.StatusConflict {
			continue
		}
		if code != http.StatusOK {
			msg, _ := statusOf(data)
			return msg, nil
		}
		return "", nil
	}
	return "", fmt.Errorf("CRD %s: conflicts", name)
}

// waitServed waits until the CRD is Established and its resource lists.
func (b *apiBackend) waitServed(st *crdState, name string) error {
	deadline := time.Now().Add(time.Minute)
	for {
		code, data, _, err := b.call("GET", crdPath+"/"+name, nil)
		if err != nil {
			return err
		}
		var head crdHead
		json.Unmarshal(data, &head)
		established := false
		for _, c := range head.Status.Conditions {
			if c.Type == "Established" && c.Status == "True" {
				established = true
			}
		}
		if code == http.StatusOK && established {
			listed := true
			for _, v := range st.versions {
				code, _, _, err := b.call("GET", b.collection(st, v, "default")+"?limit=1", nil)
				if err != nil {
					return err
				}
				listed = listed && code == http.StatusOK
			}
			if listed {
				return nil
			}
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("CRD %s: not served after a minute", name)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func addSentinel(crdJSON []byte, token string) ([]byte, error) {
	var doc map[string]interface{}
	if err := json.Unmarshal(crdJSON, &doc); err != nil {
		return nil, err
	}
	spec, _ := doc["spec"].(map[string]interface{})
	versions, _ := spec["versions"].([]interface{})
	for _, v := range versions {
		vm, _ := v.(map[string]interface{})
		schema, _ := vm["schema"].(map[string]interface{})
		root, _ := schema["openAPIV3Schema"].(map[string]interface{})
		if root == nil {
			continue
		}
		props, _ := root["properties"].(map[string]interface{})
		if props == nil {
			props = map[string]interface{}{}
			root["properties"] = props
		}
		props["sentinel"] = map[string]interface{}{"type": "string", "enum": []interface{}{token}}
	}
	return json.Marshal(doc)
}

// waitSentinel waits until the served schema knows the sentinel property
// with this token (present) or no longer knows it (!present), probing with
// a strict dry-run create of an object that has only the sentinel: other
// errors (required fields, rules) do not matter, only whether one is about
// the sentinel (an unknown field, or a cause at field sentinel: the enum of
// another token).
func (b *apiBackend) waitSentinel(st *crdState, head crdHead, token string, present bool) error {
	if !present && preservesUnknownAtRoot(st.installed) {
		// Never reported as unknown: nothing to wait for.
		return nil
	}
	deadline := time.Now().Add(30 * time.Second)
	var last string
	for {
		for _, v := range st.versions {
			obj := map[string]interface{}{"apiVersion": st.group + "/" + v, "kind": head.Spec.Names.Kind,
				"metadata": map[string]interface{}{"generateName": "probe-"}, "sentinel": token}
			body, _ := json.Marshal(obj)
			code, data, _, err := b.call("POST", b.collection(st, v, "default")+"?dryRun=All&fieldValidation=Strict", body)
			if err != nil {
				return err
			}
			msg := ""
			var causes field.ErrorList
			if code/100 != 2 {
				msg, causes = statusOf(data)
			}
			last = fmt.Sprintf("%d %s", code, msg)
			unknown := strings.Contains(msg, `unknown field "sentinel"`)
			ok := !unknown
			for _, c := range causes {
				ok = ok && c.Field != "sentinel"
			}
			if !present {
				ok = unknown
			}
			if ok {
				return nil
			}
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("CRD %s: the updated schema was not served after 30s (last probe: %s)", head.Metadata.Name, last)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// preservesUnknownAtRoot reports whether a version's root schema keeps
// unknown fields.
func preservesUnknownAtRoot(crdJSON string) bool {
	var doc struct {
		Spec struct {
			PreserveUnknownFields bool `json:"preserveUnknownFields"`
			Versions              []struct {
				Schema struct {
					OpenAPIV3Schema struct {
						Preserve bool `json:"x-kubernetes-preserve-unknown-fields"`
					} `json:"openAPIV3Schema"`
				} `json:"schema"`
			} `json:"versions"`
		} `json:"spec"`
	}
	json.Unmarshal([]byte(crdJSON), &doc)
	for _, v := range doc.Spec.Versions {
		if v.Schema.OpenAPIV3Schema.Preserve {
			return true
		}
	}
	return doc.Spec.PreserveUnknownFields
}

// collection is the path of the CRD's resources in namespace ns.
func (b *apiBackend) collection(st *crdState, version, ns string) string {
	p := "/apis/" + st.group + "/" + version
	if st.namespaced {
		p += "/namespaces/" + url.PathEscape(ns)
	}
	return p + "/" + st.plural
}

// Do implements crdtest.Backend.
func (b *apiBackend) Do(r crdtest.BackendRequest) (*crdtest.BackendResponse, error) {
	if n := b.requests.Add(1); b.progress && n%1000 == 0 {
		b.mu.Lock()
		fmt.Fprintf(os.Stderr, "  %d requests, %d CRDs installed, %d updated, %v\n", n, b.installs, b.updates, time.Since(b.start).Round(time.Second))
		b.mu.Unlock()
	}
	st, err := b.ensureCRD(r.CRD)
	if err != nil {
		return nil, err
	}
	defer st.mu.RUnlock()
	if st.installErr != "" {
		if r.Object == nil {
			return &crdtest.BackendResponse{Error: st.installErr}, nil
		}
		return nil, fmt.Errorf("the API server rejected the CRD: %s", st.installErr)
	}
	if r.Object == nil {
		return &crdtest.BackendResponse{}, nil
	}
	var obj struct {
		APIVersion string `json:"apiVersion"`
		Metadata   struct {
			Name      string `json:"name"`
			Namespace string `json:"namespace"`
		} `json:"metadata"`
	}
	json.Unmarshal(r.Object, &obj)
	version := obj.APIVersion[strings.LastIndex(obj.APIVersion, "/")+1:]
	ns := obj.Metadata.Namespace
	if ns == "" {
		ns = "default"
	}
	path := b.collection(st, version, ns)
	method := "POST"
	if r.Old != nil {
		method = "PUT"
		path += "/" + url.PathEscape(obj.Metadata.Name)
		if r.Subresource != "" {
			path += "/" + r.Subresource
		}
	}
	if r.FieldValidation != "" {
		path += "?fieldValidation=" + string(r.FieldValidation)
	}
	code, data, warnings, err := b.call(method, path, r.Object)
	if err != nil {
		return nil, err
	}
	if code/100 != 2 {
		msg, errs := statusOf(data)
		return &crdtest.BackendResponse{Error: msg, Errors: errs, Warnings: warnings}, nil
	}
	return &crdtest.BackendResponse{Object: data, Warnings: warnings}, nil
}

// Cleanup implements crdtest.Backend: the case's objects are deleted.
func (b *apiBackend) Cleanup(created [][]byte) {
	for _, o := range created {
		var obj struct {
			APIVersion string `json:"apiVersion"`
			Kind       string `json:"kind"`
			Metadata   struct {
				Name      string `json:"name"`
				Namespace string `json:"namespace"`
			} `json:"metadata"`
		}
		if json.Unmarshal(o, &obj) != nil {
			continue
		}
		group := ""
		if i := strings.LastIndex(obj.APIVersion, "/"); i >= 0 {
			group = obj.APIVersion[:i]
		}
		version := obj.APIVersion[strings.LastIndex(obj.APIVersion, "/")+1:]
		b.mu.Lock()
		states := make([]*crdState, 0, len(b.crds))
		for _, s := range b.crds {
			states = append(states, s)
		}
		b.mu.Unlock()
		ns := obj.Metadata.Namespace
		if ns == "" {
			ns = "default"
		}
		for _, s := range states {
			s.mu.RLock()
			if s.group == group && s.kind == obj.Kind && s.installErr == "" {
				b.call("DELETE", b.collection(s, version, ns)+"/"+url.PathEscape(obj.Metadata.Name), nil)
			}
			s.mu.RUnlock()
		}
	}
}
