//go:build !unix

package textfile

import "os"

// readFile reads the file at path as readAll does.
func readFile(path string, size int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readAll(f.Read, size)
}
