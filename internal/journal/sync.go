package journal

import (
	"path/filepath"
	"sync"
)

// syncFiles makes the given files, their folders and those folders'
// parents durable: a file's folder may be new (an object's shard folder
// is made on its first object), and a new folder's own name lives in its
// parent. The fsyncs run side by side: the file system commits them
// together, so a snapshot of many new files costs about one commit, not
// one per file.
func syncFiles(paths []string) error {
	dirs := map[string]bool{}
	for _, p := range paths {
		dirs[filepath.Dir(p)] = true
		dirs[filepath.Dir(filepath.Dir(p))] = true
	}
	all := append([]string(nil), paths...)
	for d := range dirs {
		all = append(all, d)
	}
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		first error
	)
	sem := make(chan struct{}, 16)
	for _, p := range all {
		wg.Add(1)
		sem <- struct{}{}
		go func(p string) {
			defer func() { <-sem; wg.Done() }()
			err := syncPath(p)
			if err != nil {
				mu.Lock()
				if first == nil {
					first = err
				}
				mu.Unlock()
			}
		}(p)
	}
	wg.Wait()
	return first
}
