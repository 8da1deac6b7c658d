package server

// Snapshot is the snapshot new runs start on now, held until release is
// called: for front ends that use the rules and plugins outside a run
// (MCP's fetch).
func (s *Server) Snapshot() (snap *Snapshot, release func()) { return s.cfg.Snapshots.Acquire() }
