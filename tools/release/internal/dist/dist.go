// Package dist reads and extends GoReleaser's output directory (dist/):
// the metadata and artifact lists it writes, and its checksums file.
package dist

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"
)

// Artifact is one entry of dist/artifacts.json.
type Artifact struct {
	Name   string `json:"name"`
	Path   string `json:"path"`
	Goos   string `json:"goos"`
	Goarch string `json:"goarch"`
	Type   string `json:"type"`
}

// Metadata is dist/metadata.json.
type Metadata struct {
	ProjectName string    `json:"project_name"`
	Version     string    `json:"version"`
	Commit      string    `json:"commit"`
	Date        time.Time `json:"date"`
}

func readJSON(file string, v any) error {
	b, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("%s: %v", file, err)
	}
	return nil
}

// Read returns dist's metadata and artifact list, the artifacts' paths
// made absolute.
func Read(dir string) (Metadata, []Artifact, error) {
	var meta Metadata
	if err := readJSON(filepath.Join(dir, "metadata.json"), &meta); err != nil {
		return meta, nil, fmt.Errorf("%v (run GoReleaser first: make release-snapshot)", err)
	}
	var arts []Artifact
	if err := readJSON(filepath.Join(dir, "artifacts.json"), &arts); err != nil {
		return meta, nil, err
	}
	// GoReleaser records paths from where it ran: dist's parent.
	abs, err := filepath.Abs(dir)
	if err != nil {
		return meta, nil, err
	}
	for i := range arts {
		if !filepath.IsAbs(arts[i].Path) {
			arts[i].Path = filepath.Join(filepath.Dir(abs), arts[i].Path)
		}
	}
	return meta, arts, nil
}

// SHA256 is the hex SHA-256 of file's content.
func SHA256(file string) (string, error) {
	in, err := os.Open(file)
	if err != nil {
		return "", err
	}
	defer in.Close()
	h := sha256.New()
	if _, err := io.Copy(h, in); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// AppendChecksums adds "SHA256  NAME" lines for files to dir's
// checksums.txt, in GoReleaser's format.
func AppendChecksums(dir string, files []string) error {
	f, err := os.OpenFile(filepath.Join(dir, "checksums.txt"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	for _, file := range files {
		sum, err := SHA256(file)
		if err != nil {
			f.Close()
			return err
		}
		fmt.Fprintf(f, "%s  %s\n", sum, filepath.Base(file))
	}
	return f.Close()
}
