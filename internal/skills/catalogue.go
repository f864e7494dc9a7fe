package skills

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
)

//go:embed catalog
var embedded embed.FS

// maxDataBytes bounds a vendor data file.
const maxDataBytes = 64 << 10

// Catalogue is an immutable set of vendor skills, safe for concurrent use.
type Catalogue struct {
	skills []Skill // most agent-friendly first, then by slug
	bySlug map[string]int
	// added and replaced are the slugs an override folder contributed.
	added, replaced []string
}

// Embedded reads the catalogue built into the binary.
func Embedded() (*Catalogue, error) {
	skills, err := readFolder(embedded, "catalog", func(name string) string { return "catalog/" + name })
	if err != nil {
		return nil, err
	}
	return newCatalogue(skills, nil, nil), nil
}

var embeddedOnce = sync.OnceValues(Embedded)

// Default is the embedded catalogue. It panics if an embedded file is
// invalid, which the package's tests rule out before any build ships.
func Default() *Catalogue {
	c, err := embeddedOnce()
	if err != nil {
		panic("skills: embedded catalogue is invalid: " + err.Error())
	}
	return c
}

// Load returns the embedded catalogue with the vendors of the folder dir
// added, or replacing embedded vendors of the same slug. An empty dir gives
// the embedded catalogue. Any invalid file fails the whole load with a
// *FileError naming the file and the field.
func Load(dir string) (*Catalogue, error) {
	base, err := embeddedOnce()
	if err != nil || dir == "" {
		return base, err
	}
	info, err := os.Stat(dir)
	if err != nil {
		return nil, fmt.Errorf("skills folder: %w", err)
	}
	if !info.IsDir() {
		return nil, fmt.Errorf("skills folder %s is not a directory", dir)
	}
	extra, err := readFolder(os.DirFS(dir), ".", func(name string) string { return filepath.Join(dir, name) })
	if err != nil {
		return nil, err
	}
	merged := slices.Clone(base.skills)
	var added, replaced []string
	for _, s := range extra {
		if i, ok := base.bySlug[s.Vendor.Slug]; ok {
			merged[i] = s
			replaced = append(replaced, s.Vendor.Slug)
		} else {
			merged = append(merged, s)
			added = append(added, s.Vendor.Slug)
		}
	}
	return newCatalogue(merged, added, replaced), nil
}

func newCatalogue(skills []Skill, added, replaced []string) *Catalogue {
	slices.SortFunc(skills, func(a, b Skill) int {
		if d := b.Vendor.AgentFriendliness - a.Vendor.AgentFriendliness; d != 0 {
			return d
		}
		return strings.Compare(a.Vendor.Slug, b.Vendor.Slug)
	})
	c := &Catalogue{skills: skills, bySlug: make(map[string]int, len(skills)), added: added, replaced: replaced}
	for i, s := range skills {
		c.bySlug[s.Vendor.Slug] = i
	}
	return c
}

// Len is the number of vendors.
func (c *Catalogue) Len() int { return len(c.skills) }

// FromFolder lists the slugs the override folder added and replaced.
func (c *Catalogue) FromFolder() (added, replaced []string) { return c.added, c.replaced }

// Skill returns the vendor with the given slug and its skill file.
func (c *Catalogue) Skill(slug string) (Skill, bool) {
	i, ok := c.bySlug[slug]
	if !ok {
		return Skill{}, false
	}
	return c.skills[i], true
}

// Search returns the vendors matching f, most agent-friendly first.
func (c *Catalogue) Search(f Filter) []Vendor {
	out := []Vendor{}
	for _, s := range c.skills {
		if f.matches(s.Vendor) {
			out = append(out, s.Vendor)
		}
	}
	return out
}

// readFolder reads every <slug>.json with its <slug>.md from root of fsys.
// Hidden files and sub-folders are skipped; any other file is an error, so
// a misnamed file cannot silently drop a vendor.
func readFolder(fsys fs.FS, root string, display func(name string) string) ([]Skill, error) {
	entries, err := fs.ReadDir(fsys, root)
	if err != nil {
		return nil, fmt.Errorf("skills folder: %w", err)
	}
	names := map[string]bool{}
	for _, e := range entries {
		if !e.IsDir() && !strings.HasPrefix(e.Name(), ".") {
			names[e.Name()] = true
		}
	}
	var out []Skill
	for _, e := range entries { // sorted by name: the first error is stable
		name := e.Name()
		if !names[name] {
			continue
		}
		stem, ext := strings.TrimSuffix(name, path.Ext(name)), path.Ext(name)
		switch {
		case ext == ".md" && names[stem+".json"]:
			continue // read with its data file
		case ext == ".md":
			return nil, &FileError{File: display(name), Problem: "has no data file " + stem + ".json beside it"}
		case ext != ".json":
			return nil, &FileError{File: display(name), Problem: "is neither a <slug>.json data file nor a <slug>.md skill file"}
		}
		s, err := readSkill(fsys, root, stem, names[stem+".md"], display)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

func readSkill(fsys fs.FS, root, stem string, hasMarkdown bool, display func(string) string) (Skill, error) {
	dataName, mdName := stem+".json", stem+".md"
	data, err := readBounded(fsys, path.Join(root, dataName), maxDataBytes)
	if err != nil {
		return Skill{}, &FileError{File: display(dataName), Problem: err.Error()}
	}
	v, p := decodeVendor(data)
	if p == nil {
		p = validateVendor(v)
	}
	if p == nil && v.Slug != stem {
		p = fieldProblem("slug", "is %q but the file is named %s; they must match", v.Slug, dataName)
	}
	if p != nil {
		return Skill{}, &FileError{File: display(dataName), Where: p.where, Problem: p.text}
	}
	if !hasMarkdown {
		return Skill{}, &FileError{File: display(mdName), Problem: "is missing: every vendor needs its Markdown skill file"}
	}
	md, err := readBounded(fsys, path.Join(root, mdName), maxMarkdownBytes)
	if err != nil {
		return Skill{}, &FileError{File: display(mdName), Problem: err.Error()}
	}
	if p := validateMarkdown(md); p != nil {
		return Skill{}, &FileError{File: display(mdName), Where: p.where, Problem: p.text}
	}
	return Skill{Vendor: v, Markdown: md, ETag: etag(v, md)}, nil
}

func readBounded(fsys fs.FS, name string, limit int) ([]byte, error) {
	data, err := fs.ReadFile(fsys, name)
	var pathErr *fs.PathError
	if errors.As(err, &pathErr) {
		return nil, pathErr.Err // the file name is reported by the caller
	}
	if err != nil {
		return nil, err
	}
	if len(data) > limit {
		return nil, fmt.Errorf("is larger than %d KiB", limit>>10)
	}
	return data, nil
}

// etag covers the body and the headers served with it, so a new version or
// maturity with an unchanged text still invalidates cached copies.
func etag(v Vendor, md []byte) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\n%s\n", v.Version, v.Maturity)
	h.Write(md)
	return `"` + hex.EncodeToString(h.Sum(nil)[:16]) + `"`
}
