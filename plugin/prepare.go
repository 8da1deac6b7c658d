package plugin

import "fmt"

// prepared is a plugin binary checked and ready to start.
type prepared struct {
	launch   launch
	sealed   *sealedBinary // the copy to run when a digest was checked
	checksum ChecksumState
	digest   string // the digest of what runs, when checked
}

// release frees the sealed copy of a binary that never started.
func (p *prepared) release() {
	if p.sealed != nil {
		p.sealed.release()
	}
}

// prepare resolves spec's reference and checks everything that decides
// whether it may run, before anything runs: the binary's ownership and
// mode, the user's trust for a project's binary, and the sha256 pin. When a
// digest must match, the binary is copied into a sealed copy as it is
// hashed, and that copy is what starts: what runs is what was checked.
func (m *Manager) prepare(spec Spec) (*prepared, error) {
	l, err := m.resolver.resolve(spec.Ref)
	if err != nil {
		return nil, err
	}
	p := &prepared{launch: l, checksum: ChecksumUnpinned}
	if !l.Builtin {
		if err := checkOwnership(l.Path); err != nil {
			return p, err
		}
	}
	var want []string // digests the binary must have, from the pin and the trust list
	if spec.SHA256 != "" {
		p.checksum = ChecksumMismatch
		pin, err := normalizePin(spec.SHA256)
		if err != nil {
			return p, err
		}
		want = append(want, pin)
	}
	trusted, err := m.consent(spec, l)
	if err != nil {
		return p, err
	}
	if trusted != "" {
		want = append(want, trusted)
	}
	if len(want) == 0 {
		return p, nil
	}
	sb, err := seal(l.Path)
	if err != nil {
		return p, fmt.Errorf("checking the sha256 of %s: %w", l.Path, err)
	}
	p.digest = sb.digest
	if spec.SHA256 != "" && sb.digest != want[0] {
		sb.release()
		return p, &ChecksumError{Path: l.Path, Expected: want[0], Actual: sb.digest}
	}
	if trusted != "" && sb.digest != trusted {
		sb.release()
		return p, &UntrustedError{Path: l.Path, Project: m.projectDir, Digest: sb.digest, Changed: true}
	}
	if spec.SHA256 != "" {
		p.checksum = ChecksumOK
	}
	p.sealed = sb
	return p, nil
}
