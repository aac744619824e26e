# memcompact's launcher in its Claude Code plugin, on Windows: the first-run
# half. bin/memcompact.cmd runs it when the memcompact executable is not in
# the plugin's data folder yet; it gets the executable there, the way
# bin/memcompact (POSIX sh) does on other systems:
#
#   1. fetched: the windows release archive for this machine and the
#      checksums file (GoReleaser's layout, as "go run ./tools/release"
#      writes them) from $env:MEMCOMPACT_RELEASE_URL, by default the
#      project's GitHub release of the plugin's version, the archive checked
#      against its SHA-256 before anything is unpacked; or, failing that,
#   2. built with Go from the plugin's own checkout, when go is on PATH.
#
# Both work in a fresh folder beside the destination and rename it into
# place only once the executable runs, so a failed or interrupted first run
# installs nothing half. Exit codes, read by memcompact.cmd: 0 installed (the
# .cmd then runs it); 3 failed, and this script has answered as the hook it
# was started for; 2 failed otherwise. When it fails it says why and what
# fixes it; as the pre-write hook it still guards: it denies writes to memory
# files (a MEMORY.md, or a file under a projects\*\memory\ folder) with that
# reason and lets every other write through. It runs on Windows PowerShell
# 5.1 (every Windows 10 and 11) and PowerShell 7. It never reads standard
# input unless it fails as the pre-write hook: on success the executable
# reads the hook's payload or the MCP client's messages.

$ErrorActionPreference = 'Stop'
$ProgressPreference = 'SilentlyContinue'

function Say([string]$text) { [Console]::Error.WriteLine("memcompact plugin: $text") }

$root = Split-Path -Parent $PSScriptRoot
$manifest = Join-Path $root '.claude-plugin\plugin.json'
$version = ''
try { $version = [string](Get-Content -Raw -LiteralPath $manifest | ConvertFrom-Json).version } catch { }

# DataFolder is where the executable goes: $env:CLAUDE_PLUGIN_DATA (Claude
# Code gives it to hooks and MCP servers; in Git Bash's /c/... form too),
# else %LOCALAPPDATA%\memcompact\plugin.
function DataFolder {
	$d = $env:CLAUDE_PLUGIN_DATA
	if (-not $d) {
		$base = $env:LOCALAPPDATA
		if (-not $base) { $base = Join-Path $env:USERPROFILE 'AppData\Local' }
		return Join-Path $base 'memcompact\plugin'
	}
	if ($d -match '^/([A-Za-z])/(.*)$') { $d = $Matches[1] + ':\' + $Matches[2] }
	return $d -replace '/', '\'
}

$data = DataFolder
$dest = Join-Path $data "v$version"
$exe = Join-Path $dest 'memcompact.exe'
$script:why = @()

# Arch is the release's name for this machine, or '' when none is built.
function Arch {
	$a = $env:PROCESSOR_ARCHITEW6432
	if (-not $a) { $a = $env:PROCESSOR_ARCHITECTURE }
	switch ($a) {
		'AMD64' { return 'amd64' }
		'ARM64' { return 'arm64' }
	}
	return ''
}

function Fetch([string]$url, [string]$file) {
	try {
		[Net.ServicePointManager]::SecurityProtocol = [Net.ServicePointManager]::SecurityProtocol -bor [Net.SecurityProtocolType]::Tls12
	} catch { }
	Invoke-WebRequest -UseBasicParsing -Uri $url -OutFile $file -TimeoutSec 120
}

# FromRelease unpacks the checked windows release archive into $work\x.
function FromRelease([string]$work) {
	$arch = Arch
	if (-not $arch) {
		$script:why += "no release is built for this machine ($env:PROCESSOR_ARCHITECTURE)"
		return $false
	}
	$base = $env:MEMCOMPACT_RELEASE_URL
	if (-not $base) { $base = "https://github.com/memcompact/memcompact/releases/download/v$version" }
	$archive = "memcompact_${version}_windows_${arch}.zip"
	$sums = "memcompact_${version}_checksums.txt"
	try { Fetch "$base/$sums" (Join-Path $work $sums) } catch {
		$script:why += "could not download $base/$sums (no network, or no release $version)"
		return $false
	}
	$want = ''
	foreach ($line in Get-Content -LiteralPath (Join-Path $work $sums)) {
		if ($line -match '^([0-9A-Fa-f]{64}) [ *](.+)$' -and $Matches[2] -eq $archive) {
			$want = $Matches[1].ToLowerInvariant()
			break
		}
	}
	if (-not $want) {
		$script:why += "$sums lists no $archive"
		return $false
	}
	$zip = Join-Path $work $archive
	try { Fetch "$base/$archive" $zip } catch {
		$script:why += "could not download $base/$archive"
		return $false
	}
	$got = (Get-FileHash -Algorithm SHA256 -LiteralPath $zip).Hash.ToLowerInvariant()
	if ($got -ne $want) {
		$script:why += "$archive does not match its checksum (SHA-256 $got, $sums says $want): refused, nothing unpacked"
		return $false
	}
	try { Expand-Archive -LiteralPath $zip -DestinationPath (Join-Path $work 'x') } catch {
		$script:why += "could not unpack ${archive}: $($_.Exception.Message)"
		return $false
	}
	return $true
}

# FromSource builds every command of the plugin's checkout into $work\x.
function FromSource([string]$work) {
	if (-not (Get-Command go -ErrorAction SilentlyContinue)) {
		$script:why += 'Go is not installed, so it cannot be built here either'
		return $false
	}
	if (-not (Test-Path -LiteralPath (Join-Path $root 'go.mod'))) {
		$script:why += "the plugin folder $root holds no source to build"
		return $false
	}
	$x = Join-Path $work 'x'
	if (Test-Path -LiteralPath $x) { Remove-Item -Recurse -Force -LiteralPath $x }
	$env:CGO_ENABLED = '0'
	Push-Location -LiteralPath $root
	# Windows PowerShell turns a native command's standard error, when
	# redirected, into errors that 'Stop' would throw on.
	$ErrorActionPreference = 'Continue'
	try {
		# "-o DIR/" with a forward slash: a trailing backslash would escape
		# the closing quote Windows PowerShell puts around a path with spaces.
		$out = & go build -trimpath -ldflags "-X github.com/memcompact/memcompact/internal/cli.Version=$version" -o (($x -replace '\\', '/') + '/') ./cmd/... 2>&1
		$ok = $LASTEXITCODE -eq 0
	} finally { Pop-Location }
	if (-not $ok) {
		$script:why += "go build failed: $((($out | Select-Object -Last 3) -join ' '))"
		return $false
	}
	return $true
}

# Install gets the executable into $dest, or adds to $why and fails.
function Install([int]$patience) {
	if (-not $version) {
		$script:why = @("$manifest names no version (the plugin is installed only in part: reinstall it)")
		return $false
	}
	try {
		New-Item -ItemType Directory -Force -Path $data | Out-Null
		$work = Join-Path $data ('.install.' + [guid]::NewGuid().ToString('N').Substring(0, 8))
		New-Item -ItemType Directory -Path $work | Out-Null
	} catch {
		$script:why = @("the plugin data folder $data cannot be written (make it writable, or set CLAUDE_PLUGIN_DATA to a folder that is)")
		return $false
	}
	$lock = Join-Path $data '.install.lock'
	$waited = 0
	while ($true) {
		try { New-Item -ItemType Directory -Path $lock | Out-Null; break } catch { }
		# Another run is installing: wait for it, up to its own limits.
		if (Test-Path -LiteralPath $exe) {
			Remove-Item -Recurse -Force -LiteralPath $work -ErrorAction SilentlyContinue
			return $true
		}
		$held = Get-Item -LiteralPath $lock -ErrorAction SilentlyContinue
		if ($held -and $held.LastWriteTime -lt (Get-Date).AddMinutes(-10)) {
			Remove-Item -Force -LiteralPath $lock -ErrorAction SilentlyContinue # left by a run that was killed
			continue
		}
		if ($waited -ge $patience) {
			Remove-Item -Recurse -Force -LiteralPath $work -ErrorAction SilentlyContinue
			$script:why = @("another run is still installing it into $data; try again in a minute")
			return $false
		}
		Start-Sleep -Seconds 1
		$waited++
	}
	$ok = $true
	try {
		if (-not (Test-Path -LiteralPath $exe)) {
			if ((FromRelease $work) -or (FromSource $work)) {
				$x = Join-Path $work 'x\memcompact.exe'
				$runs = $false
				if (Test-Path -LiteralPath $x) {
					$ErrorActionPreference = 'Continue'
					& $x version *> $null
					$ErrorActionPreference = 'Stop'
					$runs = $LASTEXITCODE -eq 0
				}
				if (-not $runs) {
					$script:why += 'the executable it got does not run on this system'
					$ok = $false
				} else {
					try {
						if (Test-Path -LiteralPath $dest) { Move-Item -LiteralPath $dest -Destination (Join-Path $work 'old') }
						Move-Item -LiteralPath (Join-Path $work 'x') -Destination $dest
					} catch {
						$script:why += "could not move it into $dest"
						$ok = $false
					}
				}
			} else {
				$ok = $false
			}
		}
	} finally {
		Remove-Item -Force -LiteralPath $lock -ErrorAction SilentlyContinue
		Remove-Item -Recurse -Force -LiteralPath $work -ErrorAction SilentlyContinue
	}
	return $ok
}

# The pre-write hook must answer inside its timeout; the others may wait
# longer for a first run that another process started.
$isHook = $args.Count -ge 1 -and $args[0] -eq 'hook'
$hookEvent = ''
if ($isHook -and $args.Count -ge 2) { $hookEvent = [string]$args[1] }
$patience = 100
if ($hookEvent -eq 'pre-write') { $patience = 20 }

if (Install $patience) { exit 0 }

$reason = $script:why -join '; '
$fix = 'restore the network (the next run fetches the release) or install Go 1.26+ (the next run builds it from the plugin''s source), then start a new session; a checksum that does not match means a damaged or altered download: do not work around it'
Say "the memcompact executable is not installed: $reason"
Say "fix: $fix"

if (-not $isHook) { exit 2 }

# Answer writes JSON text as the hook's answer on standard output.
function Answer($object) { [Console]::Out.WriteLine(($object | ConvertTo-Json -Compress -Depth 5)) }

switch ($hookEvent) {
	'pre-write' {
		# Judge from the payload alone: the file_path Claude Code gives the tool.
		$path = ''
		try { $path = [string]([Console]::In.ReadToEnd() | ConvertFrom-Json).tool_input.file_path } catch { }
		$memory = $true # a payload it cannot read is judged as a memory write
		if ($path) {
			$p = $path -replace '\\', '/'
			$leaf = ($p -split '/')[-1]
			$memory = $leaf -ieq 'MEMORY.md' -or $p -imatch '/projects/[^/]+/memory/'
		}
		if ($memory) {
			Answer @{ hookSpecificOutput = @{ hookEventName = 'PreToolUse'; permissionDecision = 'deny'; permissionDecisionReason = "memcompact's guard on memory files cannot run: $reason. Memory writes are denied until it can; fix: $fix." } }
		}
	}
	'session-start' {
		$note = "memcompact is not running: $reason. Until it is fixed ($fix), its guard denies every write to memory files."
		Answer @{ systemMessage = $note; hookSpecificOutput = @{ hookEventName = 'SessionStart'; additionalContext = $note } }
	}
}
exit 3
