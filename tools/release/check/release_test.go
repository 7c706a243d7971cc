package check

import (
	"archive/tar"
	"archive/zip"
	"bufio"
	"bytes"
	"compress/gzip"
	"debug/buildinfo"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"

	"github.com/crdlab/crdlab/tools/release/internal/dist"
	"github.com/google/go-containerregistry/pkg/v1/layout"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
)

// platforms are the release's targets, in GoReleaser's os_arch names.
var platforms = []string{"darwin_amd64", "darwin_arm64", "linux_amd64", "linux_arm64", "windows_amd64", "windows_arm64"}

type snapshot struct {
	dir  string
	meta dist.Metadata
	repo string // the checkout's root
}

func load(t *testing.T) snapshot {
	t.Helper()
	dir := os.Getenv("CRDLAB_DIST")
	if dir == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("CRDLAB_DIST is not set: run make release-check")
		}
		t.Skip("CRDLAB_DIST is not set: make release-check builds dist/ and runs these tests over it")
	}
	meta, _, err := dist.Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	repo, err := filepath.Abs("../../..")
	if err != nil {
		t.Fatal(err)
	}
	return snapshot{dir: dir, meta: meta, repo: repo}
}

func (s snapshot) file(name string) string {
	return filepath.Join(s.dir, fmt.Sprintf(name, s.meta.ProjectName, s.meta.Version))
}

func archiveName(p string) string {
	if strings.HasPrefix(p, "windows_") {
		return "%s_%s_" + p + ".zip"
	}
	return "%s_%s_" + p + ".tar.gz"
}

// TestSnapshotIsOfThisCheckout: dist/ was built from the commit checked
// out, so that a stale dist/ of another commit cannot pass.
func TestSnapshotIsOfThisCheckout(t *testing.T) {
	s := load(t)
	head, err := exec.Command("git", "-C", s.repo, "rev-parse", "HEAD").Output()
	if err != nil {
		t.Fatalf("git rev-parse HEAD: %v", err)
	}
	if got, want := s.meta.Commit, strings.TrimSpace(string(head)); got != want {
		t.Fatalf("dist/metadata.json is of commit %s, the checkout is at %s: run make release-snapshot", got, want)
	}
	if !strings.Contains(s.meta.Version, "-snapshot.") {
		t.Errorf("version %q is not a snapshot version", s.meta.Version)
	}
}

// TestChecksumsCoverEveryFile: checksums.txt lists each archive, SBOM,
// image and package, and each sum is the file's.
func TestChecksumsCoverEveryFile(t *testing.T) {
	s := load(t)
	f, err := os.Open(filepath.Join(s.dir, "checksums.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	listed := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		sum, name, ok := strings.Cut(sc.Text(), "  ")
		if !ok || len(sum) != 64 {
			t.Fatalf("checksums.txt: malformed line %q", sc.Text())
		}
		listed[name] = sum
	}
	var want []string
	for _, p := range platforms {
		want = append(want, archiveName(p), "%s_%s_"+p+".cdx.json")
	}
	want = append(want, "%s_%s_image.oci.tar", "%s_%s_linux_amd64.image.tar", "%s_%s_linux_arm64.image.tar")
	want = append(want, "crdlab-crdlab-%[2]s.tgz")
	for _, w := range want {
		name := filepath.Base(s.file(w))
		sum, ok := listed[name]
		if !ok {
			t.Errorf("checksums.txt does not list %s", name)
			continue
		}
		got, err := dist.SHA256(filepath.Join(s.dir, name))
		if err != nil {
			t.Error(err)
		} else if got != sum {
			t.Errorf("%s: sha256 %s, checksums.txt says %s", name, got, sum)
		}
	}
}

// archiveFiles returns the archive's files by name.
func archiveFiles(t *testing.T, file string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	if strings.HasSuffix(file, ".zip") {
		zr, err := zip.OpenReader(file)
		if err != nil {
			t.Fatal(err)
		}
		defer zr.Close()
		for _, f := range zr.File {
			r, err := f.Open()
			if err != nil {
				t.Fatal(err)
			}
			b, err := io.ReadAll(r)
			r.Close()
			if err != nil {
				t.Fatal(err)
			}
			out[f.Name] = b
		}
		return out
	}
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	tr := tar.NewReader(gz)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		b, err := io.ReadAll(tr)
		if err != nil {
			t.Fatal(err)
		}
		out[h.Name] = b
	}
	return out
}

// TestArchivesHoldEachPlatformsBinary: every archive holds crdlab built for
// its platform (read from the Go build information in the binary), with
// the version and commit stamped, and the LICENSE and README.
func TestArchivesHoldEachPlatformsBinary(t *testing.T) {
	s := load(t)
	for _, p := range platforms {
		t.Run(p, func(t *testing.T) {
			files := archiveFiles(t, s.file(archiveName(p)))
			exe := "crdlab"
			if strings.HasPrefix(p, "windows_") {
				exe += ".exe"
			}
			var names []string
			for n := range files {
				names = append(names, n)
			}
			sort.Strings(names)
			if got, want := strings.Join(names, " "), strings.Join(sortedStrings(exe, "LICENSE", "README.md"), " "); got != want {
				t.Fatalf("archive holds %s, want %s", got, want)
			}
			bi, err := buildinfo.Read(bytes.NewReader(files[exe]))
			if err != nil {
				t.Fatalf("%s: %v", exe, err)
			}
			settings := map[string]string{}
			for _, st := range bi.Settings {
				settings[st.Key] = st.Value
			}
			goos, goarch, _ := strings.Cut(p, "_")
			if settings["GOOS"] != goos || settings["GOARCH"] != goarch || settings["CGO_ENABLED"] != "0" {
				t.Errorf("built for GOOS=%s GOARCH=%s CGO_ENABLED=%s", settings["GOOS"], settings["GOARCH"], settings["CGO_ENABLED"])
			}
			if bi.Path != "github.com/crdlab/crdlab/cmd/crdlab" {
				t.Errorf("main package %s", bi.Path)
			}
			// -trimpath keeps -ldflags out of the build information: the
			// stamped version and commit are looked for as the strings the
			// linker wrote.
			for _, want := range []string{"v" + s.meta.Version, s.meta.Commit} {
				if !bytes.Contains(files[exe], []byte(want)) {
					t.Errorf("%s does not hold the stamped %s", exe, want)
				}
			}
		})
	}
}

func sortedStrings(s ...string) []string {
	sort.Strings(s)
	return s
}

// hostArchive extracts this machine's archive and returns its crdlab.
func hostArchive(t *testing.T, s snapshot) string {
	t.Helper()
	p := runtime.GOOS + "_" + runtime.GOARCH
	files := archiveFiles(t, s.file(archiveName(p)))
	dir := t.TempDir()
	exe := filepath.Join(dir, "crdlab")
	if runtime.GOOS == "windows" {
		exe += ".exe"
	}
	if err := os.WriteFile(exe, files[filepath.Base(exe)], 0o755); err != nil {
		t.Fatal(err)
	}
	return exe
}

// wantVersion is what `crdlab version` of the snapshot prints first.
func (s snapshot) wantVersion() string {
	return "crdlab v" + s.meta.Version + " (Kubernetes 1.37"
}

// wantValidation checks the bundled example's verdict: exit status 1, the
// invalid object's two errors, the others created.
func wantValidation(t *testing.T, out []byte, err error) {
	t.Helper()
	ee, ok := err.(*exec.ExitError)
	if !ok || ee.ExitCode() != 1 {
		t.Fatalf("validate: %v, want exit status 1\n%s", err, out)
	}
	for _, want := range []string{
		`crontab.stable.example.com/my-new-cron-object created (server dry run)`,
		`The CronTab "my-invalid-cron-object" is invalid`,
		`spec.replicas: Invalid value: 15: spec.replicas in body should be less than or equal to 10`,
		`strict decoding error: unknown field "spec.color"`,
	} {
		if !bytes.Contains(out, []byte(want)) {
			t.Errorf("validate's output lacks %q:\n%s", want, out)
		}
	}
}

// TestArchiveRunsHere: the archive of this machine's platform runs: its
// version is the snapshot's and it validates the bundled example.
func TestArchiveRunsHere(t *testing.T) {
	s := load(t)
	exe := hostArchive(t, s)
	out, err := exec.Command(exe, "version").CombinedOutput()
	if err != nil {
		t.Fatalf("crdlab version: %v\n%s", err, out)
	}
	if !strings.HasPrefix(string(out), s.wantVersion()) || !strings.Contains(string(out), "commit: "+s.meta.Commit) {
		t.Errorf("crdlab version printed\n%s\nwant %q… and commit %s", out, s.wantVersion(), s.meta.Commit)
	}
	cmd := exec.Command(exe, "validate", "--crd", "crontab-crd.yaml", ".")
	cmd.Dir = filepath.Join(s.repo, "examples")
	out, err = cmd.CombinedOutput()
	wantValidation(t, out, err)
}

type cdx struct {
	BOMFormat string `json:"bomFormat"`
	Metadata  struct {
		Component struct {
			Name    string `json:"name"`
			Version string `json:"version"`
		} `json:"component"`
	} `json:"metadata"`
	Components []struct {
		Name    string `json:"name"`
		Version string `json:"version"`
		PURL    string `json:"purl"`
	} `json:"components"`
}

// TestSBOMsListTheModules: each binary's SBOM is CycloneDX, names crdlab,
// and lists the modules linked at the versions of the main module's go.mod
// (cel-go, structured-merge-diff).
func TestSBOMsListTheModules(t *testing.T) {
	s := load(t)
	gomod, err := os.ReadFile(filepath.Join(s.repo, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	required := map[string]string{}
	for _, line := range strings.Split(string(gomod), "\n") {
		f := strings.Fields(line)
		if len(f) >= 2 && (f[0] == "github.com/google/cel-go" || f[0] == "sigs.k8s.io/structured-merge-diff/v6") {
			required[f[0]] = f[1]
		}
	}
	if len(required) != 2 {
		t.Fatalf("go.mod: found %v", required)
	}
	for _, p := range platforms {
		var bom cdx
		b, err := os.ReadFile(s.file("%s_%s_" + p + ".cdx.json"))
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, &bom); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		if bom.BOMFormat != "CycloneDX" || !strings.Contains(bom.Metadata.Component.Name, "github.com/crdlab/crdlab") {
			t.Errorf("%s: format %q, component %q", p, bom.BOMFormat, bom.Metadata.Component.Name)
		}
		found := map[string]string{}
		for _, c := range bom.Components {
			found[c.Name] = c.Version
		}
		for mod, v := range required {
			if found[mod] != v {
				t.Errorf("%s: SBOM lists %s at %q, go.mod requires %s", p, mod, found[mod], v)
			}
		}
	}
}

// TestImageIndexCoversLinux: the OCI layout holds one index with
// linux/amd64 and linux/arm64 images, each running /crdlab as user 65532
// with the snapshot's version and commit in its labels, and each holding the
// binary of its own architecture.
func TestImageIndexCoversLinux(t *testing.T) {
	s := load(t)
	dir := t.TempDir()
	untar(t, s.file("%s_%s_image.oci.tar"), dir)
	p, err := layout.FromPath(dir)
	if err != nil {
		t.Fatal(err)
	}
	root, err := p.ImageIndex()
	if err != nil {
		t.Fatal(err)
	}
	rm, err := root.IndexManifest()
	if err != nil || len(rm.Manifests) != 1 {
		t.Fatalf("index.json: %v, %d entries", err, len(rm.Manifests))
	}
	idx, err := root.ImageIndex(rm.Manifests[0].Digest)
	if err != nil {
		t.Fatal(err)
	}
	im, err := idx.IndexManifest()
	if err != nil {
		t.Fatal(err)
	}
	var plats []string
	for _, d := range im.Manifests {
		plats = append(plats, d.Platform.OS+"/"+d.Platform.Architecture)
		img, err := idx.Image(d.Digest)
		if err != nil {
			t.Fatal(err)
		}
		cf, err := img.ConfigFile()
		if err != nil {
			t.Fatal(err)
		}
		c := cf.Config
		if strings.Join(c.Entrypoint, " ") != "/crdlab" || c.User != "65532:65532" || c.WorkingDir != "/work" ||
			c.Labels["org.opencontainers.image.version"] != s.meta.Version || c.Labels["org.opencontainers.image.revision"] != s.meta.Commit {
			t.Errorf("%s: config %+v", d.Platform.Architecture, c)
		}
		tr := tar.NewReader(mutate.Extract(img))
		var exe []byte
		for {
			h, err := tr.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			if h.Name == "crdlab" {
				if h.Mode&0o111 == 0 {
					t.Errorf("/crdlab mode %o", h.Mode)
				}
				exe, _ = io.ReadAll(tr)
			}
		}
		bi, err := buildinfo.Read(bytes.NewReader(exe))
		if err != nil {
			t.Fatalf("%s: /crdlab: %v", d.Platform.Architecture, err)
		}
		for _, st := range bi.Settings {
			if st.Key == "GOARCH" && st.Value != d.Platform.Architecture {
				t.Errorf("the %s image holds a %s binary", d.Platform.Architecture, st.Value)
			}
		}
	}
	if got := strings.Join(plats, " "); got != "linux/amd64 linux/arm64" {
		t.Errorf("index platforms %s", got)
	}
}

func untar(t *testing.T, file, dir string) {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tr := tar.NewReader(f)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		target := filepath.Join(dir, filepath.FromSlash(h.Name))
		if !strings.HasPrefix(target, dir+string(filepath.Separator)) {
			t.Fatalf("%s: entry %q leaves the directory", file, h.Name)
		}
		if h.Typeflag == tar.TypeDir {
			if err := os.MkdirAll(target, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(tr)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(target, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestImageRunsInPodman: podman (daemonless) loads the image built for this
// machine and runs it: `version`, then the bundled example mounted at /work.
// Podman keeps its images under the test's temporary directory (vfs
// storage), and the flags run it in a container sandbox without systemd or
// cgroup v2 (runc, cgroupfs, limits below the sandbox's own).
func TestImageRunsInPodman(t *testing.T) {
	s := load(t)
	if runtime.GOOS != "linux" {
		t.Skip("the image is linux only")
	}
	if _, err := exec.LookPath("podman"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("podman is not installed (make setup installs it)")
		}
		t.Skip("podman is not installed (make setup installs it with runc)")
	}
	root := t.TempDir()
	podman := func(args ...string) *exec.Cmd {
		base := []string{"--root", filepath.Join(root, "storage"), "--runroot", filepath.Join(root, "run"),
			"--storage-driver", "vfs", "--runtime", "runc", "--cgroup-manager", "cgroupfs", "--events-backend", "none"}
		cmd := exec.Command("podman", append(base, args...)...)
		cmd.Env = append(os.Environ(), "XDG_RUNTIME_DIR="+filepath.Join(root, "xdg"), "XDG_CONFIG_HOME="+filepath.Join(root, "config"))
		return cmd
	}
	t.Cleanup(func() {
		// vfs leaves read-only layer directories behind: let podman remove them.
		podman("system", "reset", "--force").Run()
	})
	image := s.file("%s_%s_linux_" + runtime.GOARCH + ".image.tar")
	if out, err := podman("load", "-i", image).CombinedOutput(); err != nil {
		t.Fatalf("podman load: %v\n%s", err, out)
	}
	ref := "ghcr.io/crdlab/crdlab:" + s.meta.Version
	run := []string{"run", "--rm", "--network", "none", "--ulimit", "nofile=1024:1024", "--ulimit", "nproc=1024:1024"}
	out, err := podman(append(run, ref, "version")...).CombinedOutput()
	if err != nil {
		t.Fatalf("podman run %s version: %v\n%s", ref, err, out)
	}
	if !strings.HasPrefix(string(out), s.wantVersion()) {
		t.Errorf("the image's crdlab version printed\n%s\nwant %q…", out, s.wantVersion())
	}
	examples := filepath.Join(s.repo, "examples")
	out, err = podman(append(run, "-v", examples+":/work:ro", ref, "validate", "--crd", "crontab-crd.yaml", ".")...).CombinedOutput()
	wantValidation(t, out, err)
}

// TestNpmPackageInstallsAndValidates: `npm install` of the packed tarball
// (offline: the package has no dependencies) gives a module that loads its
// WebAssembly and validates the bundled example as the CLI does.
func TestNpmPackageInstallsAndValidates(t *testing.T) {
	s := load(t)
	proj := t.TempDir()
	if err := os.WriteFile(filepath.Join(proj, "package.json"), []byte(`{"name":"user","private":true,"type":"module"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	tgz, err := filepath.Abs(s.file("crdlab-crdlab-%[2]s.tgz"))
	if err != nil {
		t.Fatal(err)
	}
	install := exec.Command("npm", "install", "--offline", "--no-audit", "--no-fund", tgz)
	install.Dir = proj
	install.Env = append(os.Environ(), "npm_config_cache="+filepath.Join(proj, ".npm"))
	if out, err := install.CombinedOutput(); err != nil {
		t.Fatalf("npm install %s: %v\n%s", filepath.Base(tgz), err, out)
	}
	script := `
import { readFileSync } from 'node:fs';
import { load } from '@crdlab/crdlab';
const crdlab = await load();
const crd = crdlab.compile(readFileSync(process.argv[2] + '/crontab-crd.yaml', 'utf8'));
const report = crd.validate(readFileSync(process.argv[2] + '/invalid.yaml', 'utf8'));
for (const e of report.object.errors) console.log(e.message);
`
	if err := os.WriteFile(filepath.Join(proj, "check.mjs"), []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	node := exec.Command("node", "check.mjs", filepath.Join(s.repo, "examples"))
	node.Dir = proj
	out, err := node.CombinedOutput()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, out)
	}
	want := "spec.cronSpec: Invalid value: \"* * * *\": spec.cronSpec in body should match '^(\\d+|\\*)(/\\d+)?(\\s+(\\d+|\\*)(/\\d+)?){4}$'\n" +
		"spec.replicas: Invalid value: 15: spec.replicas in body should be less than or equal to 10\n"
	if string(out) != want {
		t.Errorf("the installed package printed\n%s\nwant\n%s", out, want)
	}
	var pkg struct{ Version string }
	b, err := os.ReadFile(filepath.Join(proj, "node_modules", "@crdlab", "crdlab", "package.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &pkg); err != nil || pkg.Version != s.meta.Version {
		t.Errorf("installed package version %q (%v), want %s", pkg.Version, err, s.meta.Version)
	}
}
