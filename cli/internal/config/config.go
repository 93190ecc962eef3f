// Package config keeps the CLI's profiles (config.yaml) and credentials (credentials.yaml, mode 0600) in
// the user's configuration directory, ~/.config/keel unless XDG_CONFIG_HOME says otherwise.
package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"time"

	"go.yaml.in/yaml/v3"
)

// DefaultProfile is the profile used when none is chosen.
const DefaultProfile = "default"

// Profile is one control plane and how to use it. Empty fields fall back to the built-in defaults.
type Profile struct {
	APIURL       string `yaml:"api-url,omitempty"`
	Issuer       string `yaml:"issuer,omitempty"`
	ClientID     string `yaml:"client-id,omitempty"`
	Organization string `yaml:"organization,omitempty"`
	Output       string `yaml:"output,omitempty"`
}

// File is config.yaml.
type File struct {
	CurrentProfile string             `yaml:"current-profile,omitempty"`
	Profiles       map[string]Profile `yaml:"profiles,omitempty"`
}

// Credential is what a login left for one profile: a person's tokens, or a service account's secret.
type Credential struct {
	ClientID     string    `yaml:"client-id"`
	ClientSecret string    `yaml:"client-secret,omitempty"`
	AccessToken  string    `yaml:"access-token,omitempty"`
	RefreshToken string    `yaml:"refresh-token,omitempty"`
	Expiry       time.Time `yaml:"expiry,omitempty"`
}

// Credentials is credentials.yaml, by profile name.
type Credentials struct {
	Profiles map[string]Credential `yaml:"profiles,omitempty"`
}

// Dir is the directory of both files.
func Dir() (string, error) {
	base, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("no configuration directory: %w", err)
	}
	return filepath.Join(base, "keel"), nil
}

// Load reads config.yaml; a missing file is an empty configuration.
func Load() (*File, error) {
	f := &File{}
	if err := read("config.yaml", f); err != nil {
		return nil, err
	}
	if f.Profiles == nil {
		f.Profiles = map[string]Profile{}
	}
	return f, nil
}

// Save writes config.yaml.
func (f *File) Save() error {
	return write("config.yaml", f, 0o644)
}

// Names lists the profiles, sorted.
func (f *File) Names() []string {
	names := make([]string, 0, len(f.Profiles))
	for name := range f.Profiles {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

// LoadCredentials reads credentials.yaml; a missing file holds no credentials.
func LoadCredentials() (*Credentials, error) {
	c := &Credentials{}
	if err := read("credentials.yaml", c); err != nil {
		return nil, err
	}
	if c.Profiles == nil {
		c.Profiles = map[string]Credential{}
	}
	return c, nil
}

// Save writes credentials.yaml readable by its owner only.
func (c *Credentials) Save() error {
	return write("credentials.yaml", c, 0o600)
}

func read(name string, into any) error {
	dir, err := Dir()
	if err != nil {
		return err
	}
	data, err := os.ReadFile(filepath.Join(dir, name))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if err := yaml.Unmarshal(data, into); err != nil {
		return fmt.Errorf("%s: %w", filepath.Join(dir, name), err)
	}
	return nil
}

// write replaces the file in one rename, so a crash never leaves half a file, with its mode set before
// anything is written to it.
func write(name string, from any, mode os.FileMode) error {
	dir, err := Dir()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	data, err := yaml.Marshal(from)
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, name+".*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(mode); err != nil {
		tmp.Close()
		return err
	}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), filepath.Join(dir, name))
}
