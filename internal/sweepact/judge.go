package sweepact

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/memcompact/memcompact/internal/index"
	"github.com/memcompact/memcompact/internal/records"
)

// A sweep judges an entry finished, or critical, by structure: by what the
// entry, its index line and the store's records say in the places that
// carry a status, never because a word occurs somewhere in its text. A
// word in prose says something about whatever the sentence is about — "36
// variants 검증완료" (verified), "20 completed" (a count), "reuse landed …"
// in an entry that says "not committed", "All completed entries moved" in
// the store's own archive index, "Taggart critical perspective" — and an
// owner would not sign a demotion made on it.
//
// The rules, in order; the first that decides, decides, and its name and
// the text it read are the call's evidence (Subject.FinishedBy):
//
//   - ledger: the store's ledger settled it in place, kept it hot or
//     restored it (the owner decided it stays: never finished), or holds a
//     proposed exit for this life (finished, on that record);
//   - frontmatter: its status (status: done, resolved, shipped, superseded,
//     … finished; active, open, in progress, … not), or superseded_by;
//   - index tag: a status tag on its index line, `[shipped]`, `[resolved]`
//     (finished) or `[active]`, `[open]` (not);
//   - status line: the last of its own status lines ("**Status:** …",
//     "Status (2026-07-02): …", "상태: …", "状态：…", "ステータス: …",
//     "Stand: …"; a dated one beats an undated one, a later date an earlier
//     one): finished when its value starts with a finished word and names no
//     open work, not finished when it names work still open;
//   - wording: a finished word in a status position of the entry's own
//     headline — first or last word of a clause of its title (the link
//     text, its frontmatter name), or a clause by itself in its hook or
//     description ("— RESOLVED (2026-06-01)", "(shipped)", "✅ 완료",
//     "RESOLVED: …") — never counted (a number before it), never negated in
//     its clause, never inside a longer word (in Korean, Chinese and
//     Japanese, a word that follows another word is that word's status, not
//     the entry's: "PRD 작성 완료"), and only when nothing in the headline
//     names work still open ("NOT live", "not committed", "미해결", "대기",
//     "未", "pending", "next").
//
// Critical (Subject.CriticalWhy) comes from the slate's current critical
// row, the entry's frontmatter (critical: true, priority or severity:
// critical) or its pin (pinned: true); an index line's own emphasis (🚨,
// "CRITICAL", 중요) is prose: it orders the demotions (emphasized last) and
// is named in the evidence, but it makes no call.

// call is one judgement: the rule that made it and what it read.
type call struct {
	rule, text string
}

func (c call) String() string {
	if c.text == "" {
		return c.rule
	}
	return fmt.Sprintf("%s: %s", c.rule, c.text)
}

// The status vocabularies, lower case. finishedTerms are whole words (or,
// for scripts without spaces, whole tokens); activeTerms say the work goes
// on; openTerms anywhere in a headline say some of it is still open.
var (
	finishedTerms = wordSet("done", "complete", "completed", "resolved", "shipped", "closed", "fixed", "merged", "landed",
		"superseded", "obsolete", "deprecated", "retired", "archived", "abandoned", "cancelled", "canceled", "finished", "wontfix",
		"erledigt", "abgeschlossen", "behoben", "fertig", "ersetzt", "veraltet", "überholt", "eingestellt",
		"terminé", "résolu", "fermé", "resuelto", "cerrado", "completado", "concluído", "resolvido",
		"완료", "완료됨", "해결", "해결됨", "종료", "폐기", "폐기됨", "머지됨", "배포완료",
		"完了", "解決済", "解決済み", "終了", "廃止", "対応済", "対応済み", "クローズ",
		"已完成", "完成", "已解决", "已解決", "已关闭", "已關閉", "已废弃", "已廢棄", "已合并", "已合併", "已上线", "已结束")
	activeTerms = wordSet("active", "open", "ongoing", "in-progress", "wip", "live", "current", "pending", "blocked", "todo", "draft",
		"operational", "planned", "paused", "offen", "aktiv", "laufend", "geplant",
		"진행", "진행중", "활성", "대기", "보류", "예정", "進行中", "対応中", "未完了", "未対応", "予定", "进行中", "進行中", "未完成", "待办", "待處理", "待处理")
	openTerms = wordSet("not", "pending", "todo", "next", "remaining", "open", "blocked", "waiting", "awaiting", "wip", "unpulled",
		"deferred", "partial", "partially", "until", "still", "unmerged", "uncommitted", "unreleased", "unresolved", "incomplete",
		"nicht", "noch", "offen", "ausstehend", "geplant",
		"대기", "다음", "남은", "남음", "예정", "진행", "진행중", "보류", "아직", "남은일", "다음=",
		"予定", "次", "残り", "まだ", "対応中", "進行中", "未着手", "未完了",
		"待", "进行中", "下一步", "尚未", "还没", "待办")
	// openPrefixes are the prefixes that turn a word into its negation or
	// its open form: 미해결 (unresolved), 未完成 (unfinished).
	openPrefixes = []string{"미", "未", "un"}
	negators     = wordSet("not", "never", "no", "isn't", "wasn't", "aren't", "hasn't", "haven't", "won't", "didn't", "nicht", "kein", "keine", "pas", "jamais", "non", "안", "못", "没", "沒", "不", "ない")
	// statusLabels open a status line.
	statusLabels = wordSet("status", "state", "stand", "zustand", "상태", "진행상태", "진행 상태", "状态", "狀態", "ステータス", "状態", "状況", "进度", "進捗")
	// criticalValues of frontmatter's priority or severity.
	criticalValues = wordSet("critical", "blocker", "p0")
)

func wordSet(ws ...string) map[string]bool {
	m := make(map[string]bool, len(ws))
	for _, w := range ws {
		m[w] = true
	}
	return m
}

// finishedCall judges whether a pointer's entry is finished or
// superseded. done is the call; a non-empty why with done false is a rule
// that decided it is not (an active status, the owner's settlement), for
// the evidence. The ledger rows are the store's; line is the pointer's
// index line, linkText and dest its link's.
func finishedCall(ledger *records.Ledger, identity, line string, links, own []index.Link, b *body) (c call, done bool) {
	type ruled struct {
		c          call
		done, says bool
	}
	var rs []ruled
	for _, f := range []func() (call, bool, bool){
		func() (call, bool, bool) { return ledgerCall(ledger, identity) },
		func() (call, bool, bool) { return frontmatterCall(b) },
		func() (call, bool, bool) { return tagCall(line, links) },
		func() (call, bool, bool) { return statusLineCall(b) },
	} {
		c, done, says := f()
		rs = append(rs, ruled{c, done, says})
	}
	for i, r := range rs {
		if !r.says {
			continue
		}
		// A later structural rule that says otherwise is named, so the
		// owner sees the disagreement the first rule settled.
		for _, o := range rs[i+1:] {
			if o.says && o.done != r.done {
				r.c.text += fmt.Sprintf(" (the %s %q says otherwise)", o.c.rule, o.c.text)
				break
			}
		}
		return r.c, r.done
	}
	return wordingCall(line, links, own, b)
}

// ownLinks are the links of l that name the entry called name: on a line
// of several subjects, only its own link text is its title.
func ownLinks(l *index.Line, name string) []index.Link {
	var out []index.Link
	for _, k := range l.Subjects() {
		if records.LinkName(k) == name {
			out = append(out, k)
		}
	}
	return out
}

// ledgerCall reads the store's own records of this life: the latest
// executed settle-in-place, keep-hot-with-expiry or restore keeps it; a
// proposed exit marks it finished on the record.
func ledgerCall(l *records.Ledger, identity string) (call, bool, bool) {
	if l == nil {
		return call{}, false, false
	}
	var latest *records.LedgerRecord
	for _, r := range l.Records {
		if r.Malformed || r.Identity != identity {
			continue
		}
		switch {
		case r.Status != records.StatusProposed && (r.Disposition == "settle-in-place" || r.Disposition == "keep-hot-with-expiry" || r.Disposition == "restore"):
		case r.Status == records.StatusProposed && (r.Disposition == "demote" || r.Disposition == "remove-obsolete"):
		default:
			continue
		}
		if latest == nil || r.Date.Compare(latest.Date) >= 0 {
			latest = r
		}
	}
	if latest == nil {
		return call{}, false, false
	}
	c := call{"ledger", fmt.Sprintf("%s:%d %s %s on %s", l.Path(), latest.Line, latest.Status, latest.Disposition, latest.Date)}
	return c, latest.Status == records.StatusProposed, true
}

// frontmatterCall reads the entry's status and superseded_by.
func frontmatterCall(b *body) (call, bool, bool) {
	if b == nil {
		return call{}, false, false
	}
	for _, k := range []string{"superseded_by", "superseded-by", "supersededBy", "replaced_by"} {
		if v := strings.TrimSpace(b.Front[k]); v != "" {
			return call{"frontmatter", k + ": " + v}, true, true
		}
	}
	v := strings.ToLower(strings.TrimSpace(b.Front["status"]))
	if v == "" {
		return call{}, false, false
	}
	first := firstWord(v)
	switch {
	case activeTerms[v] || activeTerms[first] || v == "in progress":
		return call{"frontmatter", "status: " + b.Front["status"]}, false, true
	case finishedTerms[v] || finishedTerms[first]:
		return call{"frontmatter", "status: " + b.Front["status"]}, true, true
	}
	return call{}, false, false
}

// tagCall reads a status tag on the index line outside the link's text:
// "`[shipped]`", "[resolved]".
func tagCall(line string, links []index.Link) (call, bool, bool) {
	rest := outsideLinks(line, links)
	for {
		i := strings.IndexByte(rest, '[')
		if i < 0 {
			return call{}, false, false
		}
		j := strings.IndexByte(rest[i:], ']')
		if j < 0 {
			return call{}, false, false
		}
		tag := strings.ToLower(strings.TrimSpace(rest[i+1 : i+j]))
		switch {
		case finishedTerms[tag]:
			return call{"index tag", "[" + rest[i+1:i+j] + "]"}, true, true
		case activeTerms[tag] || tag == "in progress":
			return call{"index tag", "[" + rest[i+1:i+j] + "]"}, false, true
		}
		rest = rest[i+j+1:]
	}
}

// outsideLinks is line with the text of its links blanked out.
func outsideLinks(line string, links []index.Link) string {
	if len(links) == 0 {
		return line
	}
	var b strings.Builder
	at := 0
	for _, k := range links {
		if k.Start < at {
			continue
		}
		b.WriteString(line[at:k.Start])
		b.WriteString(" — ")
		at = k.End
	}
	b.WriteString(line[at:])
	return b.String()
}

// statusLineCall reads the entry's own status lines: the last dated one,
// else the last one.
func statusLineCall(b *body) (call, bool, bool) {
	if b == nil || !b.Exists {
		return call{}, false, false
	}
	var best, bestDated string
	var bestDate string
	fenced := false
	for _, l := range strings.Split(b.Text, "\n") {
		if t := strings.TrimSpace(l); strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			fenced = !fenced // a status in an example is not the entry's
			continue
		}
		if fenced {
			continue
		}
		value, date, ok := statusValue(l)
		if !ok {
			continue
		}
		best = value
		if date != "" && date >= bestDate {
			bestDated, bestDate = value, date
		}
	}
	if bestDated != "" {
		best = bestDated
	}
	if best == "" {
		return call{}, false, false
	}
	words := words(best)
	text := snippet(best, 80)
	switch {
	case len(words) == 0:
		return call{}, false, false
	case openIn(words):
		return call{"status line", text}, false, true
	case finishedTerms[words[0]] || len(words) > 1 && finishedTerms[words[0]+words[1]]:
		return call{"status line", text}, true, true
	case activeTerms[words[0]]:
		return call{"status line", text}, false, true
	}
	return call{}, false, false
}

// statusValue reads one line as a status line: a label (after list
// markers, heading marks and emphasis), an optional "(date)", then ':' or
// a dash, then the value. date is the label's date, if any.
func statusValue(line string) (value, date string, ok bool) {
	s := strings.TrimLeft(strings.TrimSpace(line), "#>-*+_ \t")
	i := 0
	for i < len(s) && s[i] != ':' && s[i] != '(' && !strings.HasPrefix(s[i:], "：") && !strings.HasPrefix(s[i:], "—") {
		i++
		if i > 24 {
			return "", "", false
		}
	}
	label := strings.ToLower(strings.Trim(strings.TrimSpace(s[:i]), "*_ "))
	if !statusLabels[label] || i == len(s) {
		return "", "", false
	}
	s = s[i:]
	if s[0] == '(' {
		end := strings.IndexByte(s, ')')
		if end < 0 {
			return "", "", false
		}
		if d, ok := oldestDate(s[:end]); ok {
			date = d
		}
		s = strings.TrimLeft(s[end+1:], "*_ ")
	}
	switch {
	case strings.HasPrefix(s, ":"):
		s = s[1:]
	case strings.HasPrefix(s, "："):
		s = s[len("："):]
	case strings.HasPrefix(s, "—"):
		s = s[len("—"):]
	default:
		return "", "", false
	}
	value = strings.TrimSpace(strings.Trim(strings.TrimSpace(s), "*_"))
	if date == "" {
		if d, ok := oldestDate(value); ok {
			date = d
		}
	}
	return value, date, value != ""
}

// wordingCall judges the entry's headline: its title (the link text,
// frontmatter name) and its hook (the rest of the index line,
// frontmatter description).
func wordingCall(line string, links, own []index.Link, b *body) (call, bool) {
	var titles, hooks []string
	for _, k := range own {
		if !sameAsFile(k.Text, k.Dest) {
			titles = append(titles, k.Text)
		}
	}
	hooks = append(hooks, outsideLinks(line, links))
	if b != nil {
		if n := b.Front["name"]; n != "" && len(own) > 0 && !sameAsFile(n, own[0].Dest) {
			titles = append(titles, n)
		}
		if d := b.Front["description"]; d != "" {
			hooks = append(hooks, d)
		}
	}
	var all []string
	for _, p := range append(append([]string{}, titles...), hooks...) {
		all = append(all, words(p)...)
	}
	if openIn(all) {
		return call{}, false
	}
	for _, t := range titles {
		for _, cl := range clauses(t) {
			ws := trimRefs(words(cl))
			if n := len(ws); n > 0 && (finishedTerms[ws[n-1]] || endsFinished(ws[n-1])) && !counted(ws) && !negatedIn(ws[:n-1]) {
				return call{"title wording", snippet(t, 100)}, true
			}
		}
		if lead := leadingLabel(t); lead != "" && finishedTerms[lead] {
			return call{"title wording", snippet(t, 100)}, true
		}
	}
	for _, h := range hooks {
		first := true
		for _, cl := range statusClauses(h) {
			ws := trimRefs(words(cl))
			if len(ws) == 1 && finishedTerms[ws[0]] || first && statedFinished(ws) {
				return call{"hook wording", snippet(strings.Trim(cl, " \t,.;:*_`"), 100)}, true
			}
			first = first && len(ws) == 0
		}
		if lead := leadingLabel(h); lead != "" && finishedTerms[lead] {
			return call{"hook wording", snippet(strings.TrimSpace(h), 100)}, true
		}
	}
	return call{}, false
}

// endsFinished reports whether a word of a script written without spaces
// ends in a finished term: a title "数据迁移已完成" (data migration
// completed) says its subject is finished. Only a title's last word is
// read so: in a hook, "36 variant 검증완료" (verification done) speaks of
// a part.
func endsFinished(w string) bool {
	r, _ := utf8.DecodeRuneInString(w)
	if r < 0x1100 {
		return false
	}
	for t := range finishedTerms {
		if len(t) < len(w) && strings.HasSuffix(w, t) && utf8.RuneCountInString(t) >= 2 {
			before := w[:len(w)-len(t)]
			if r, _ := utf8.DecodeRuneInString(t); r >= 0x1100 && !strings.HasSuffix(before, "未") && !strings.HasSuffix(before, "미") && !strings.HasSuffix(before, "没") && !strings.HasSuffix(before, "沒") {
				return true
			}
		}
	}
	return false
}

// copulas state what a hook's subject is; statusAdverbs may stand
// between a copula and the finished word.
var (
	copulas       = wordSet("is", "are", "was", "were", "been", "ist", "sind", "wurde", "wurden")
	statusAdverbs = wordSet("now", "fully", "finally", "all", "jetzt", "vollständig")
)

// statedFinished reports whether the words of a hook's first clause state
// that its subject is finished: they end "<subject> is [now] <finished>"
// ("the coupled-field migration is RESOLVED"), nothing counted or negated.
func statedFinished(ws []string) bool {
	n := len(ws)
	if n < 3 || !finishedTerms[ws[n-1]] || counted(ws) || negatedIn(ws[:n-1]) {
		return false
	}
	return copulas[ws[n-2]] || n >= 4 && statusAdverbs[ws[n-2]] && copulas[ws[n-3]]
}

// leadingLabel is a word that opens text as a label ("RESOLVED: …"),
// lower case, or "".
func leadingLabel(text string) string {
	s := strings.TrimLeft(strings.TrimSpace(text), "—–-*_`✅☑✔ \t")
	i := strings.IndexAny(s, ":：")
	if i <= 0 || i > 24 {
		return ""
	}
	w := words(s[:i])
	if len(w) != 1 {
		return ""
	}
	return w[0]
}

// trimRefs drops the dates, times, commit hashes, PR and issue numbers a
// clause ends with: "… shipped 2026-06-22", "… LANDED 024de1ac 09-04".
func trimRefs(ws []string) []string {
	for len(ws) > 0 && isRef(ws[len(ws)-1]) {
		ws = ws[:len(ws)-1]
	}
	return ws
}

// isRef reports whether a token is a date, a time, a number or a hash.
func isRef(tok string) bool {
	tok = strings.Trim(tok, "()`*_,.#~")
	if tok == "" {
		return true
	}
	digits := 0
	for _, r := range tok {
		switch {
		case r >= '0' && r <= '9':
			digits++
		case r == '-' || r == ':' || r == '/' || r == '.' || r >= 'a' && r <= 'f':
		default:
			return false
		}
	}
	return digits > 0
}

// clauses splits a headline where a status can end or begin: dashes,
// colons, semicolons, commas, brackets, middle dots, bars, sentence ends
// ("stale/completed/dormant entries" is one clause: a slash joins words).
func clauses(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool {
		return strings.ContainsRune("—–:;,()[]{}·|+=→；，：（）【】「」。!?", r)
	})
}

// statusClauses splits a hook where a status stands apart from the prose:
// dashes, brackets, bars, semicolons, sentence ends; not commas, which
// join the items of a list ("stale, completed, or dormant entries").
func statusClauses(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool {
		return strings.ContainsRune("—–()[]{}·|;（）【】「」。", r)
	})
}

// words are the lower-cased words of s: runs of letters, digits, '-' and
// '\” (a digit run is a word, so a count is seen); a run of a script
// without spaces is one word.
func words(s string) []string {
	var out []string
	for _, f := range strings.FieldsFunc(s, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '-' && r != '\'' && r != '_'
	}) {
		f = strings.Trim(f, "-'_")
		if f != "" {
			out = append(out, strings.ToLower(f))
		}
	}
	return out
}

func firstWord(s string) string {
	if ws := words(s); len(ws) > 0 {
		return ws[0]
	}
	return ""
}

// openIn reports whether words name work still open: an open term, or a
// word formed from a finished or active one with a negating prefix
// (미해결, 未完成, unresolved).
func openIn(ws []string) bool {
	for i, w := range ws {
		if openTerms[w] || strings.HasSuffix(w, "n't") {
			return true
		}
		if i+1 < len(ws) && (w == "in" && ws[i+1] == "progress" || w == "ready" && ws[i+1] == "for") {
			return true
		}
		for _, p := range openPrefixes {
			if rest, ok := strings.CutPrefix(w, p); ok && rest != "" && (finishedTerms[rest] || hasFinishedStem(rest)) {
				return true
			}
		}
		if strings.HasPrefix(w, "ready_for") || strings.HasPrefix(w, "not_") {
			return true
		}
	}
	return false
}

// hasFinishedStem reports whether w (in a script without spaces) starts
// with a finished term: 미머지 → 머지, 未完成 → 完成; and the few verbs
// whose open form is written with a prefix.
func hasFinishedStem(w string) bool {
	for _, stem := range []string{"해결", "완료", "머지", "발행", "적용", "배포", "구현", "착수", "반영", "완成", "完成", "完了", "解決", "解决", "対応", "merged", "committed", "landed", "shipped", "pulled"} {
		if strings.HasPrefix(w, stem) {
			return true
		}
	}
	return false
}

// counted reports whether the last word of ws is a count's noun: a number
// stands just before it ("20 completed", "9/9 COMPLETE").
func counted(ws []string) bool {
	if len(ws) < 2 {
		return false
	}
	p := ws[len(ws)-2]
	for _, r := range p {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// negatedIn reports whether a negator stands among the last three words.
func negatedIn(ws []string) bool {
	for i := len(ws) - 1; i >= 0 && i >= len(ws)-3; i-- {
		if negators[ws[i]] || strings.HasSuffix(ws[i], "n't") {
			return true
		}
	}
	return false
}

// sameAsFile reports whether a title is only its file's name: a label
// that says nothing of its own.
func sameAsFile(title, dest string) bool {
	t := strings.Trim(strings.TrimSpace(title), "*_`")
	f := index.FileName(dest)
	return strings.EqualFold(t, f) || strings.EqualFold(t, records.EntryName(f))
}

// snippet is s cut to at most n runes, with "…" where it was cut.
func snippet(s string, n int) string {
	s = strings.TrimSpace(s)
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n]) + "…"
}

// criticalCall reads the entry's own critical marks: its frontmatter
// (critical: true or yes; priority or severity: critical) and its pin.
func criticalCall(b *body) (call, bool) {
	if b == nil {
		return call{}, false
	}
	for _, k := range []string{"critical", "pinned"} {
		switch strings.ToLower(strings.TrimSpace(b.Front[k])) {
		case "true", "yes":
			return call{"frontmatter", k + ": " + b.Front[k]}, true
		}
	}
	for _, k := range []string{"priority", "severity"} {
		if v := strings.ToLower(strings.TrimSpace(b.Front[k])); criticalValues[v] {
			return call{"frontmatter", k + ": " + b.Front[k]}, true
		}
	}
	return call{}, false
}
