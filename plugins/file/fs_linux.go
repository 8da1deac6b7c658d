package file

import (
	"os"

	"github.com/nous-dev/nous/sdk"
	"golang.org/x/sys/unix"
)

// refusedFS names the file systems of /proc and /sys, refused wherever
// they are mounted: the opened file's own file system is checked, so a
// directory swapped for a link into them after the path check is caught.
func refusedFS(magic int64) string {
	switch magic {
	case unix.PROC_SUPER_MAGIC:
		return "procfs"
	case unix.SYSFS_MAGIC:
		return "sysfs"
	case unix.DEBUGFS_MAGIC, unix.TRACEFS_MAGIC, unix.SECURITYFS_MAGIC, unix.CGROUP_SUPER_MAGIC, unix.CGROUP2_SUPER_MAGIC:
		return "a kernel file system"
	}
	return ""
}

// refuseFS refuses f, shown as name, when it lives on a kernel file system.
func refuseFS(f *os.File, name string) error {
	var st unix.Statfs_t
	if err := unix.Fstatfs(int(f.Fd()), &st); err != nil {
		return sdk.Errorf(sdk.KindBadConfig, "file: %s: %v", name, err)
	}
	if fsName := refusedFS(int64(st.Type)); fsName != "" {
		return sdk.Errorf(sdk.KindBadConfig, "file: %s is on %s; the file source never reads /proc, /sys or /dev", name, fsName)
	}
	return nil
}
