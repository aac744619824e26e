@echo off
rem memcompact's launcher in its Claude Code plugin, on Windows.
rem
rem Claude Code names "${CLAUDE_PLUGIN_ROOT}/bin/memcompact" for the plugin's
rem hooks and MCP server, in exec form (no shell). On Windows a file with no
rem extension cannot be started: the hook spawner and the MCP server spawner
rem both look the name up with the PATHEXT extensions, find this file, and
rem run it through cmd.exe. It does what bin/memcompact (POSIX sh) does:
rem
rem   1. run the executable from the plugin's data folder when it is there
rem      (%CLAUDE_PLUGIN_DATA%, else %LOCALAPPDATA%\memcompact\plugin, in a
rem      folder named for the plugin's version): this file alone, no
rem      PowerShell, so a hook costs one cmd.exe start;
rem   2. otherwise memcompact.ps1 beside it gets the executable (the windows
rem      release archive checked against the release's SHA-256 checksums
rem      file, or built with Go) and this file then runs it; when that fails
rem      it says why and, as the pre-write hook, still denies memory writes.
rem
rem Its lines stay plain ASCII with CRLF endings (.gitattributes): cmd.exe
rem misreads a batch file with LF endings.
setlocal EnableExtensions DisableDelayedExpansion

set "version="
for /f "usebackq tokens=1,2 delims=:, " %%a in ("%~dp0..\.claude-plugin\plugin.json") do (
	if not defined version if "%%~a"=="version" set "version=%%~b"
)

if defined CLAUDE_PLUGIN_DATA (
	set "data=%CLAUDE_PLUGIN_DATA%"
) else if defined LOCALAPPDATA (
	set "data=%LOCALAPPDATA%\memcompact\plugin"
) else (
	set "data=%USERPROFILE%\AppData\Local\memcompact\plugin"
)
rem A data folder handed over in Git Bash's form (/c/Users/...) is turned
rem into C:\Users\... before cmd.exe uses it.
if "%data:~0,1%"=="/" if "%data:~2,1%"=="/" set "data=%data:~1,1%:%data:~2%"
set "data=%data:/=\%"
set "exe=%data%\v%version%\memcompact.exe"

if not defined version goto install
if not exist "%exe%" goto install
"%exe%" %*
exit /b %errorlevel%

:install
rem memcompact.ps1's exit codes: 0 installed, 3 failed and answered as a
rem hook (its output is the hook's answer), anything else failed.
set "ps=powershell.exe"
where /q powershell.exe || set "ps=pwsh.exe"
"%ps%" -NoLogo -NoProfile -NonInteractive -ExecutionPolicy Bypass -File "%~dp0memcompact.ps1" %*
set "rc=%errorlevel%"
if "%rc%"=="0" if exist "%exe%" (
	"%exe%" %*
	goto end
)
if "%rc%"=="3" exit /b 0
if "%rc%"=="9009" goto nopowershell
if "%rc%"=="0" exit /b 2
exit /b %rc%

:nopowershell
rem No PowerShell: nothing can be fetched or checked, and the payload cannot
rem be read. The guard cannot judge, so as the pre-write hook it denies.
echo memcompact plugin: the memcompact executable is not installed, and neither powershell.exe nor pwsh.exe is on PATH to install it 1>&2
echo memcompact plugin: fix: install PowerShell, or install Go 1.26+ and run "go install ./cmd/..." from the plugin folder 1>&2
if /i not "%~1"=="hook" exit /b 2
if /i "%~2"=="pre-write" (
	echo {"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"memcompact's guard cannot run: its executable is not installed and PowerShell, which installs it, is not on PATH. Writes are denied until it can judge them; fix: install PowerShell, then start a new session."}}
)
if /i "%~2"=="session-start" (
	echo {"systemMessage":"memcompact is not running: its executable is not installed and PowerShell, which installs it, is not on PATH.","hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"memcompact is not running: its executable is not installed and PowerShell, which installs it, is not on PATH. Until it is fixed its guard denies writes."}}
)
exit /b 0

:end
exit /b %errorlevel%
