// Command ociimage builds crdlab's container image from a GoReleaser
// snapshot's Linux binaries, without a Docker daemon: go-containerregistry
// writes the layers, configs and manifests itself.
//
//	ociimage -dist dist
//
// It reads dist/artifacts.json and dist/metadata.json (GoReleaser's records
// of what it built) and writes
//
//   - dist/crdlab_VERSION_image.oci.tar: an OCI image layout holding the
//     multi-platform index (linux/amd64, linux/arm64), what a registry
//     receives (`skopeo copy oci-archive:… docker://…`, `crane push`);
//   - dist/crdlab_VERSION_linux_ARCH.image.tar for each architecture, the
//     tarball `docker load` and `podman load` read;
//
// and appends their SHA-256 sums to dist/checksums.txt. The image is the
// static binary alone on an empty base (FROM scratch): /crdlab as the
// entrypoint, user 65532 (nonroot), working directory /work, OCI labels for
// version, revision and source. Time stamps are the commit's, so the same
// commit gives the same image digests.
package main

import (
	"archive/tar"
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/crdlab/crdlab/tools/release/internal/dist"
	"github.com/google/go-containerregistry/pkg/name"
	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/empty"
	"github.com/google/go-containerregistry/pkg/v1/layout"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
	"github.com/google/go-containerregistry/pkg/v1/types"
)

// Repository is the name the images are tagged with; nothing is pushed.
const Repository = "ghcr.io/crdlab/crdlab"

func main() {
	dir := flag.String("dist", "dist", "GoReleaser's output directory")
	flag.Parse()
	if err := run(*dir); err != nil {
		fmt.Fprintln(os.Stderr, "ociimage:", err)
		os.Exit(1)
	}
}

func run(distDir string) error {
	meta, arts, err := dist.Read(distDir)
	if err != nil {
		return err
	}
	bins := map[string]string{}
	for _, a := range arts {
		if a.Type == "Binary" && a.Goos == "linux" && (a.Goarch == "amd64" || a.Goarch == "arm64") {
			bins[a.Goarch] = a.Path
		}
	}
	archs := []string{"amd64", "arm64"}
	for _, arch := range archs {
		if bins[arch] == "" {
			return fmt.Errorf("%s lists no linux/%s binary: run GoReleaser first", filepath.Join(distDir, "artifacts.json"), arch)
		}
	}
	created, err := commitTime(distDir, meta.Commit)
	if err != nil {
		return err
	}
	tag, err := name.NewTag(Repository + ":" + meta.Version)
	if err != nil {
		return err
	}
	index := mutate.IndexMediaType(empty.Index, types.OCIImageIndex)
	var written []string
	for _, arch := range archs {
		img, err := image(bins[arch], arch, meta, created)
		if err != nil {
			return err
		}
		index = mutate.AppendManifests(index, mutate.IndexAddendum{
			Add:        img,
			Descriptor: v1.Descriptor{Platform: &v1.Platform{OS: "linux", Architecture: arch}},
		})
		file := filepath.Join(distDir, fmt.Sprintf("%s_%s_linux_%s.image.tar", meta.ProjectName, meta.Version, arch))
		if err := tarball.WriteToFile(file, tag, img); err != nil {
			return err
		}
		written = append(written, file)
	}
	dir, err := os.MkdirTemp(distDir, "oci-layout-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	p, err := layout.Write(dir, empty.Index)
	if err != nil {
		return err
	}
	if err := p.AppendIndex(index, layout.WithAnnotations(map[string]string{
		"org.opencontainers.image.ref.name": meta.Version,
	})); err != nil {
		return err
	}
	file := filepath.Join(distDir, fmt.Sprintf("%s_%s_image.oci.tar", meta.ProjectName, meta.Version))
	if err := tarDir(dir, file, created); err != nil {
		return err
	}
	written = append(written, file)
	return dist.AppendChecksums(distDir, written)
}

// commitTime is the time of the commit GoReleaser built, read from the
// repository dist belongs to: the image's time stamps, so that a commit gives
// the same image whenever it is built.
func commitTime(distDir, commit string) (time.Time, error) {
	abs, err := filepath.Abs(distDir)
	if err != nil {
		return time.Time{}, err
	}
	if len(commit) != 40 {
		return time.Time{}, fmt.Errorf("metadata.json names commit %q: GoReleaser could not read the checkout's commit", commit)
	}
	out, err := exec.Command("git", "-C", filepath.Dir(abs), "show", "-s", "--format=%ct", commit).Output()
	if err != nil {
		return time.Time{}, fmt.Errorf("git show %s: %v", commit, err)
	}
	sec, err := strconv.ParseInt(strings.TrimSpace(string(out)), 10, 64)
	if err != nil {
		return time.Time{}, fmt.Errorf("git show %s: %q is not a time", commit, out)
	}
	return time.Unix(sec, 0).UTC(), nil
}

// image is one platform's image: the binary as /crdlab on an empty base.
func image(bin, arch string, meta dist.Metadata, created time.Time) (v1.Image, error) {
	exe, err := os.ReadFile(bin)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for _, h := range []*tar.Header{
		{Name: "work/", Typeflag: tar.TypeDir, Mode: 0o755, ModTime: created, Uid: 65532, Gid: 65532},
		{Name: "crdlab", Typeflag: tar.TypeReg, Mode: 0o755, Size: int64(len(exe)), ModTime: created},
	} {
		if err := tw.WriteHeader(h); err != nil {
			return nil, err
		}
		if h.Typeflag == tar.TypeReg {
			if _, err := tw.Write(exe); err != nil {
				return nil, err
			}
		}
	}
	if err := tw.Close(); err != nil {
		return nil, err
	}
	layerBytes := buf.Bytes()
	layer, err := tarball.LayerFromOpener(func() (io.ReadCloser, error) {
		return io.NopCloser(bytes.NewReader(layerBytes)), nil
	}, tarball.WithMediaType(types.OCILayer))
	if err != nil {
		return nil, err
	}
	base := mutate.MediaType(empty.Image, types.OCIManifestSchema1)
	base = mutate.ConfigMediaType(base, types.OCIConfigJSON)
	img, err := mutate.Append(base, mutate.Addendum{Layer: layer, History: v1.History{
		Created:   v1.Time{Time: created},
		CreatedBy: "ociimage: crdlab binary (GoReleaser build " + meta.Version + ")",
		Comment:   "crdlab " + meta.Version,
	}})
	if err != nil {
		return nil, err
	}
	cf, err := img.ConfigFile()
	if err != nil {
		return nil, err
	}
	cf = cf.DeepCopy()
	cf.Architecture, cf.OS = arch, "linux"
	cf.Created = v1.Time{Time: created}
	cf.Config.Entrypoint = []string{"/crdlab"}
	cf.Config.Cmd = []string{"--help"}
	cf.Config.User = "65532:65532"
	cf.Config.WorkingDir = "/work"
	cf.Config.Labels = map[string]string{
		"org.opencontainers.image.title":       "crdlab",
		"org.opencontainers.image.description": "Kubernetes CRD and custom-resource validation, exact to kube-apiserver, offline",
		"org.opencontainers.image.version":     meta.Version,
		"org.opencontainers.image.revision":    meta.Commit,
		"org.opencontainers.image.source":      "https://github.com/crdlab/crdlab",
		"org.opencontainers.image.licenses":    "Apache-2.0",
	}
	return mutate.ConfigFile(img, cf)
}

// tarDir writes dir's files into a tar archive, in name order, with fixed
// times and owners, so that the same image gives the same archive.
func tarDir(dir, file string, mtime time.Time) error {
	var names []string
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p != dir {
			names = append(names, p)
		}
		return nil
	})
	if err != nil {
		return err
	}
	sort.Strings(names)
	out, err := os.Create(file)
	if err != nil {
		return err
	}
	tw := tar.NewWriter(out)
	for _, p := range names {
		fi, err := os.Stat(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		h := &tar.Header{Name: filepath.ToSlash(rel), ModTime: mtime, Mode: 0o644}
		if fi.IsDir() {
			h.Typeflag, h.Name, h.Mode = tar.TypeDir, h.Name+"/", 0o755
			if err := tw.WriteHeader(h); err != nil {
				return err
			}
			continue
		}
		h.Typeflag, h.Size = tar.TypeReg, fi.Size()
		if err := tw.WriteHeader(h); err != nil {
			return err
		}
		f, err := os.Open(p)
		if err != nil {
			return err
		}
		_, err = io.Copy(tw, f)
		f.Close()
		if err != nil {
			return err
		}
	}
	if err := tw.Close(); err != nil {
		return err
	}
	return out.Close()
}
