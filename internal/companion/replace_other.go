//go:build !unix

package companion

import "os"

// Replace runs bin (the executable name) with args on this process's
// streams and exits with its code: this system cannot replace a process.
// It returns only when bin could not be run.
func Replace(bin, name string, args []string) error {
	code, err := Run(bin, name, args, os.Stdin, os.Stdout, os.Stderr)
	if err != nil {
		return err
	}
	os.Exit(code)
	return nil
}
