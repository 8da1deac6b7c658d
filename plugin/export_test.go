package plugin

import "net"

// PIDs maps "kind/name" to the pid of the running plugin process serving
// each spec; specs that share a process share its pid.
func (m *Manager) PIDs() map[string]int {
	out := map[string]int{}
	for key, s := range m.slots {
		if s.pool == nil {
			continue
		}
		s.pool.lock <- struct{}{}
		if p := s.pool.running(); p != nil {
			out[key.kind.String()+"/"+key.name] = p.pid()
		}
		s.pool.release()
	}
	return out
}

// Addrs maps "kind/name" to the address the running plugin process serving
// each spec listens on.
func (m *Manager) Addrs() map[string]net.Addr {
	out := map[string]net.Addr{}
	for key, s := range m.slots {
		if s.pool == nil {
			continue
		}
		s.pool.lock <- struct{}{}
		if p := s.pool.running(); p != nil {
			out[key.kind.String()+"/"+key.name] = p.client.ReattachConfig().Addr
		}
		s.pool.release()
	}
	return out
}
