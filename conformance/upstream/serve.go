package upstream

import "github.com/crdlab/crdlab/wire"

// Served is a CRD that the create path accepted, served as kube-apiserver
// serves it (getOrCreateServingInfoFor): what Run builds before handling the
// request, kept so that one CRD can answer many requests (the benchmarks
// time the compile and the request sides apart).
type Served struct {
	CRD *CompiledCRD
	srv *server
}

// Serve builds the serving side of a CRD that CreateCRD accepted (no
// Errors).
func Serve(c *CompiledCRD) (*Served, error) {
	srv, err := newServer(c.V1)
	if err != nil {
		return nil, err
	}
	return &Served{CRD: c, srv: srv}, nil
}

// StorageVersion is the CRD's storage version.
func (s *Served) StorageVersion() string { return s.srv.storageVersion }

// Request handles one request for a custom resource, as Run does for
// req.Object (req.CRD is not read).
func (s *Served) Request(req Request) (*wire.ObjectReport, error) {
	return s.srv.request(req)
}
