package crdtest

import (
	"encoding/json"
	"fmt"

	"github.com/crdlab/crdlab/engine"
	"github.com/crdlab/crdlab/engine/field"
)

// Backend receives a run's requests instead of crdlab's engine when set in
// Options: benchmarks/apiserver sends them to a real kube-apiserver, so the
// same suites, resolved and compared by the same runner, time the API
// server and check crdlab's verdicts against it. A Backend installs (or
// updates) the request's CRD before serving the request; it must be safe
// for concurrent use when Options.Parallel is not 1.
//
// Under a Backend, a CRD crdlab would reject is sent anyway (the backend
// reports the API server's verdict), and the checks of crdlab's sequences
// that the API does not expose are skipped: expectedPruned and maxCost.
type Backend interface {
	// Do serves one request. A request without Object only installs its
	// CRD (a sequence's patchCRD step): Error is then the API server's
	// rejection of the CRD.
	Do(BackendRequest) (*BackendResponse, error)
	// Cleanup is called after each case with the objects the case created
	// (as last stored, JSON), e.g. to delete them as OpenShift's runner
	// does after each case.
	Cleanup(created [][]byte)
}

// BackendRequest is one API request of a case.
type BackendRequest struct {
	// CRD is the CustomResourceDefinition the request runs under (JSON,
	// the suite's version only, patches applied).
	CRD []byte
	// Object is the request body; Old, for an update, the object as last
	// stored (nil for a create).
	Object, Old []byte
	// Subresource is "" or "status".
	Subresource     string
	FieldValidation engine.FieldValidation
}

// BackendResponse is the API server's answer.
type BackendResponse struct {
	// Error is the status message of a failed request ("" on success).
	Error string
	// Errors are the failed request's status causes as field errors (Type
	// from the cause's type, Detail the cause's message).
	Errors field.ErrorList
	// Object is the stored object of a successful request (JSON).
	Object []byte
	// Warnings are the response's Warning headers, in order.
	Warnings []string
}

// doBackend serves r through the backend.
func (s *server) doBackend(r request, body, old []byte) (*engine.Result, string, object, error) {
	resp, err := s.l.backend.Do(BackendRequest{CRD: s.l.crdJSON(r.crd), Object: body, Old: old, Subresource: r.subresource, FieldValidation: r.fv})
	if err != nil {
		return nil, "", nil, err
	}
	res := &engine.Result{Errors: resp.Errors, Warnings: resp.Warnings}
	if resp.Error != "" {
		if len(resp.Errors) == 0 {
			res.DecodeError = resp.Error
		}
		return res, resp.Error, nil, nil
	}
	var obj object
	if err := json.Unmarshal(resp.Object, &obj); err != nil || obj == nil {
		return nil, "", nil, fmt.Errorf("the backend returned no object: %v", err)
	}
	res.Object = obj
	s.created[metaString(obj, "name")] = resp.Object
	return res, "", obj, nil
}

// cleanup hands the case's objects to the backend.
func (s *server) cleanup() {
	if s.l.backend == nil || len(s.created) == 0 {
		return
	}
	var objs [][]byte
	for _, o := range s.created {
		objs = append(objs, o)
	}
	s.l.backend.Cleanup(objs)
}
