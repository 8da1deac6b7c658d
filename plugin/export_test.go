package plugin

// PIDs maps "kind/name" to the pid of each running plugin process.
func (m *Manager) PIDs() map[string]int {
	out := map[string]int{}
	for key, s := range m.slots {
		s.lock <- struct{}{}
		if s.proc != nil && s.proc.usable() {
			out[key.kind.String()+"/"+key.name] = s.proc.pid()
		}
		s.release()
	}
	return out
}
