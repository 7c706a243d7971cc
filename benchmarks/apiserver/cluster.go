package main

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"io"
	"math/big"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// cluster is etcd and kube-apiserver on 127.0.0.1, as envtest starts them.
type cluster struct {
	dir     string
	etcd    *exec.Cmd
	api     *exec.Cmd
	url     string // https://127.0.0.1:<port>
	token   string
	client  *http.Client
	started time.Duration // from starting etcd to /readyz and the default namespace
}

// disabledAdmission are kube-apiserver 1.37's default-on admission plugins
// but NamespaceLifecycle: none of them acts on custom resources, so the
// chain is minimal (envtest leaves the defaults on; the difference is not
// measurable for custom resources).
var disabledAdmission = []string{"LimitRanger", "ServiceAccount", "DefaultStorageClass",
	"PersistentVolumeClaimResize", "DefaultTolerationSeconds", "MutatingAdmissionWebhook",
	"ValidatingAdmissionWebhook", "ResourceQuota", "StorageObjectInUseProtection", "PodGroupProtection",
	"Priority", "TaintNodesByCondition", "RuntimeClass", "CertificateApproval", "CertificateSigning",
	"ClusterTrustBundleAttest", "CertificateSubjectRestriction", "DefaultIngressClass", "PodSecurity",
	"PodTopologyLabels", "MutatingAdmissionPolicy", "ValidatingAdmissionPolicy",
	"NodeDeclaredFeatureValidator", "PodResizeValidator"}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// startCluster starts etcd and kube-apiserver from binDir with their data,
// certificates and logs in dir, and waits until the API server is ready.
func startCluster(ctx context.Context, binDir, dir string) (*cluster, error) {
	c := &cluster{dir: dir, token: "crdlab-" + strconv.FormatInt(time.Now().UnixNano(), 36)}
	start := time.Now()
	ports := make([]int, 3)
	for i := range ports {
		p, err := freePort()
		if err != nil {
			return nil, err
		}
		ports[i] = p
	}
	etcdURL := fmt.Sprintf("http://127.0.0.1:%d", ports[0])
	peerURL := fmt.Sprintf("http://127.0.0.1:%d", ports[1])
	// etcd, with envtest's flags (no fsync: a test cluster).
	var err error
	c.etcd, err = startProcess(ctx, filepath.Join(binDir, "etcd"), filepath.Join(dir, "etcd.log"),
		"--name=default", "--data-dir="+filepath.Join(dir, "etcd"),
		"--listen-client-urls="+etcdURL, "--advertise-client-urls="+etcdURL,
		"--listen-peer-urls="+peerURL, "--initial-advertise-peer-urls="+peerURL,
		"--initial-cluster=default="+peerURL, "--unsafe-no-fsync=true")
	if err != nil {
		return nil, err
	}
	// Serving certificate (a CA generated now), service-account key, token.
	caPEM, err := writeCerts(dir)
	if err != nil {
		c.stop()
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(dir, "tokens.csv"), []byte(c.token+",admin,admin,system:masters\n"), 0o600); err != nil {
		c.stop()
		return nil, err
	}
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(caPEM)
	c.client = &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}, ForceAttemptHTTP2: true, MaxIdleConnsPerHost: 64}, Timeout: time.Minute}
	if err := waitHTTP(ctx, &http.Client{Timeout: time.Second}, etcdURL+"/health", "", 60*time.Second); err != nil {
		c.stop()
		return nil, fmt.Errorf("etcd did not become healthy (see %s): %v", filepath.Join(dir, "etcd.log"), err)
	}
	c.url = fmt.Sprintf("https://127.0.0.1:%d", ports[2])
	c.api, err = startProcess(ctx, filepath.Join(binDir, "kube-apiserver"), filepath.Join(dir, "kube-apiserver.log"),
		"--etcd-servers="+etcdURL,
		"--bind-address=127.0.0.1", "--advertise-address=127.0.0.1", "--secure-port="+strconv.Itoa(ports[2]),
		"--tls-cert-file="+filepath.Join(dir, "serving.crt"), "--tls-private-key-file="+filepath.Join(dir, "serving.key"),
		"--cert-dir="+dir,
		"--token-auth-file="+filepath.Join(dir, "tokens.csv"),
		"--authorization-mode=AlwaysAllow",
		"--disable-admission-plugins="+strings.Join(disabledAdmission, ","),
		"--service-cluster-ip-range=10.0.0.0/24",
		"--service-account-issuer=https://127.0.0.1",
		"--service-account-key-file="+filepath.Join(dir, "sa.key"),
		"--service-account-signing-key-file="+filepath.Join(dir, "sa.key"),
		"--endpoint-reconciler-type=none", // as envtest: 127.0.0.1 cannot be the kubernetes service's endpoint
		"--allow-privileged=true")
	if err != nil {
		c.stop()
		return nil, err
	}
	if err := waitHTTP(ctx, c.client, c.url+"/readyz", c.token, 180*time.Second); err != nil {
		c.stop()
		return nil, fmt.Errorf("kube-apiserver did not become ready (see %s): %v", filepath.Join(dir, "kube-apiserver.log"), err)
	}
	// OpenShift's cases run in namespace default, which the API server's
	// bootstrap controller creates.
	if err := waitHTTP(ctx, c.client, c.url+"/api/v1/namespaces/default", c.token, 60*time.Second); err != nil {
		c.stop()
		return nil, fmt.Errorf("namespace default: %v", err)
	}
	c.started = time.Since(start)
	return c, nil
}

func startProcess(ctx context.Context, bin, logFile string, args ...string) (*exec.Cmd, error) {
	if _, err := os.Stat(bin); err != nil {
		return nil, fmt.Errorf("%v (build it with make envtest-build)", err)
	}
	log, err := os.Create(logFile)
	if err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Stdout, cmd.Stderr = log, log
	setDeathSignal(cmd)
	if err := cmd.Start(); err != nil {
		log.Close()
		return nil, err
	}
	return cmd, nil
}

func (c *cluster) stop() {
	for _, p := range []*exec.Cmd{c.api, c.etcd} {
		if p != nil && p.Process != nil {
			p.Process.Signal(os.Interrupt)
			done := make(chan struct{})
			go func() { p.Wait(); close(done) }()
			select {
			case <-done:
			case <-time.After(10 * time.Second):
				p.Process.Kill()
				<-done
			}
		}
	}
}

func waitHTTP(ctx context.Context, client *http.Client, url, token string, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	var last string
	for {
		req, _ := http.NewRequestWithContext(ctx, "GET", url, nil)
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		resp, err := client.Do(req)
		if err == nil {
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode == 200 {
				return nil
			}
			last = fmt.Sprintf("%s: %s", resp.Status, strings.TrimSpace(string(body)))
		} else {
			last = err.Error()
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			return fmt.Errorf("%s: %s", url, last)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// writeCerts writes a CA, a serving certificate for 127.0.0.1/localhost
// signed by it (serving.crt/key) and a service-account signing key
// (sa.key); it returns the CA certificate (PEM).
func writeCerts(dir string) ([]byte, error) {
	caKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	now := time.Now()
	caTmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "crdlab-envtest-ca"},
		NotBefore: now.Add(-time.Hour), NotAfter: now.Add(24 * time.Hour), IsCA: true, BasicConstraintsValid: true,
		KeyUsage: x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature}
	caDER, err := x509.CreateCertificate(rand.Reader, caTmpl, caTmpl, &caKey.PublicKey, caKey)
	if err != nil {
		return nil, err
	}
	caCert, _ := x509.ParseCertificate(caDER)
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(2), Subject: pkix.Name{CommonName: "kube-apiserver"},
		NotBefore: now.Add(-time.Hour), NotAfter: now.Add(24 * time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		DNSNames: []string{"localhost"}, IPAddresses: []net.IP{net.ParseIP("127.0.0.1")}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, caCert, &key.PublicKey, caKey)
	if err != nil {
		return nil, err
	}
	keyDER, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		return nil, err
	}
	saKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	saDER, err := x509.MarshalECPrivateKey(saKey)
	if err != nil {
		return nil, err
	}
	caPEM := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: caDER})
	files := map[string][]byte{
		"ca.crt":      caPEM,
		"serving.crt": pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}),
		"serving.key": pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDER}),
		"sa.key":      pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: saDER}),
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o600); err != nil {
			return nil, err
		}
	}
	return caPEM, nil
}

// cpu returns the CPU time (user+system) etcd and kube-apiserver have used
// so far, from /proc (0 where unavailable).
func (c *cluster) cpu() time.Duration {
	var total time.Duration
	for _, p := range []*exec.Cmd{c.etcd, c.api} {
		if p == nil || p.Process == nil {
			continue
		}
		data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", p.Process.Pid))
		if err != nil {
			continue
		}
		// fields after the command's closing parenthesis: utime is the 12th, stime the 13th
		s := string(data)
		f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
		if len(f) < 13 {
			continue
		}
		u, _ := strconv.ParseInt(f[11], 10, 64)
		st, _ := strconv.ParseInt(f[12], 10, 64)
		total += time.Duration(u+st) * time.Second / 100 // USER_HZ
	}
	return total
}
