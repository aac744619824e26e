package compact

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memcompact/memcompact/internal/budget"
	"github.com/memcompact/memcompact/internal/distill"
)

var retentionTable = flag.Bool("retention-table", false, "print the retention table for BENCHMARKS.md")

// truth is one fact written into a retention fixture, with what a
// faithful compaction must do with it.
type truth struct {
	text    string // the sentence, as written
	kind    string // priority, decision, observation, chatter
	subject string // the person or project it is about
	current bool   // false: a later statement replaced it
	entry   int    // the entry it is written in, from 1
}

// retentionLang is one language's sentences: each %s is a name, each %d
// a number, so that every fact of a fixture is distinct.
type retentionLang struct {
	lang        string
	names       []string
	priority    []string // about a person: %s name, then at most one %d
	decision    []string // %d, %d
	observation []string // %d, %d
	chatter     []string
	reversal    [2]string // the old side, then the statement that replaces it
}

var retentionLangs = []retentionLang{
	{lang: "en", names: []string{"Omar", "Lena", "Priya", "Tomás", "Aiko", "Jonas"},
		priority:    []string{"%s is allergic to peanuts and carries an EpiPen.", "%s has asthma and keeps an inhaler at home.", "%s lives in Lisbon since %d."},
		decision:    []string{"We decided to keep %d retries for job-%d because the queue is slow.", "Always run the linter before pushing service-%d, at most %d minutes."},
		observation: []string{"The staging box runs Postgres 16.%d on port 54%02d.", "Build %d took %d minutes on the CI runner."},
		chatter:     []string{"Thanks for the good session!", "Chatted about the weather."},
		reversal:    [2]string{"The family goes swimming on Saturdays.", "The family goes swimming on Sundays instead."}},
	{lang: "de", names: []string{"Lena", "Jonas", "Mehmet", "Greta", "Paul", "Anja"},
		priority:    []string{"%s ist allergisch gegen Erdnüsse und hat einen EpiPen dabei.", "%s hat Asthma und nimmt täglich ein Medikament.", "%s wohnt in Hamburg seit %d."},
		decision:    []string{"Wir haben entschieden, %d Wiederholungen für Job-%d zu behalten.", "Bevorzugt kurze Antworten für Projekt-%d, höchstens %d Zeilen."},
		observation: []string{"Der Staging-Server läuft mit Postgres 16.%d auf Port 54%02d.", "Build %d dauerte %d Minuten."},
		chatter:     []string{"Danke, gutes Gespräch!", "Kurz über das Wetter geplaudert."},
		reversal:    [2]string{"Die Familie geht samstags schwimmen.", "Die Familie geht stattdessen sonntags schwimmen."}},
	{lang: "es", names: []string{"Lucía", "Mateo", "Carmen", "Diego", "Sofía", "Pablo"},
		priority:    []string{"%s es alérgico al maní y lleva un EpiPen.", "%s tiene asma y usa un inhalador cada día.", "%s vive en Valencia desde %d."},
		decision:    []string{"Decidimos mantener %d reintentos para el trabajo-%d.", "Prefiere respuestas cortas para el proyecto-%d, como mucho %d líneas."},
		observation: []string{"El servidor de pruebas usa Postgres 16.%d en el puerto 54%02d.", "La compilación %d tardó %d minutos."},
		chatter:     []string{"¡Muchas gracias, buena sesión!", "Charlamos un rato sobre el tiempo."},
		reversal:    [2]string{"La familia va a nadar los sábados.", "La familia va a nadar los domingos en lugar de los sábados."}},
	{lang: "zh", names: []string{"王芳", "李雷", "陈伟", "赵敏", "周杰", "孙丽"},
		priority:    []string{"%s对花生过敏，随身带肾上腺素笔。", "%s有哮喘，需要每天服药。", "%s自%d年起住在上海。"},
		decision:    []string{"我们决定为任务%d保留%d次重试。", "用户希望项目%d的回答简短，最多%d行。"},
		observation: []string{"测试服务器运行 Postgres 16.%d，端口 54%02d。", "第%d次构建用了%d分钟。"},
		chatter:     []string{"谢谢，聊得很开心！", "闲聊了一会儿天气。"},
		reversal:    [2]string{"全家周六去游泳。", "全家改为周日去游泳。"}},
	{lang: "ja", names: []string{"佐藤", "鈴木", "高橋", "田中", "伊藤", "渡辺"},
		priority:    []string{"%sはピーナッツアレルギーがあり、エピペンを持っています。", "%sは喘息があり、毎日薬を服用しています。", "%sは%d年から大阪に住んでいます。"},
		decision:    []string{"ジョブ%dのリトライを%d回にすると決めた。", "プロジェクト%dでは短い回答が好きです、最大%d行。"},
		observation: []string{"ステージングは Postgres 16.%d、ポート 54%02d で動いている。", "ビルド%dは%d分かかった。"},
		chatter:     []string{"ありがとうございます、楽しい雑談でした。", "天気について世間話をした。"},
		reversal:    [2]string{"家族は土曜日に水泳に行く。", "家族は代わりに日曜日に水泳に行く。"}},
	{lang: "ko", names: []string{"민준", "서연", "지호", "하은", "도윤", "수아"},
		priority:    []string{"%s은 땅콩 알레르기가 있어 에피펜을 가지고 다닌다.", "%s은 천식이 있어 매일 약을 복용한다.", "%s은 %d년부터 부산에 살고 있다."},
		decision:    []string{"작업 %d의 재시도를 %d회로 결정했다.", "프로젝트 %d에서는 짧은 답변을 선호한다, 최대 %d줄."},
		observation: []string{"스테이징 서버는 Postgres 16.%d, 포트 54%02d에서 동작한다.", "빌드 %d는 %d분 걸렸다."},
		chatter:     []string{"감사합니다, 즐거운 잡담이었다.", "날씨에 대해 잡담했다."},
		reversal:    [2]string{"가족은 토요일에 수영하러 간다.", "가족은 대신 일요일에 수영하러 간다."}},
}

// fixture writes a diary of n entries in language l and its ground truth:
// every sixth entry is chatter only, every other fact has a chatter
// sentence beside it, one choice is reversed later.
func (l retentionLang) fixture(n int) (string, []truth) {
	var b strings.Builder
	var ts []truth
	b.WriteString("# Diary\n\n")
	entry := 0
	add := func(t truth) { t.entry = entry; ts = append(ts, t) }
	for i := 1; i <= n; i++ {
		entry = i
		fmt.Fprintf(&b, "## 2025-%02d-%02d 10:00 — Note %d\n", 1+i%12, 1+i%28, i)
		var fact truth
		switch i % 6 {
		case 0:
			c := l.chatter[i%len(l.chatter)]
			b.WriteString(c + "\n\n")
			add(truth{text: c, kind: "chatter"})
			continue
		case 1, 4:
			name := l.names[(i/6)%len(l.names)]
			tmpl := l.priority[(i/6+i)%len(l.priority)]
			s := fmt.Sprintf(tmpl, name)
			if strings.Contains(tmpl, "%d") {
				s = fmt.Sprintf(tmpl, name, 1990+i)
			}
			fact = truth{text: s, kind: "priority", subject: name, current: true}
		case 2:
			fact = truth{text: fmt.Sprintf(l.decision[(i/6)%len(l.decision)], i, 3+i), kind: "decision", subject: "project", current: true}
		default:
			fact = truth{text: fmt.Sprintf(l.observation[(i/6+i)%len(l.observation)], i, 10+i), kind: "observation", subject: "project", current: true}
		}
		line := fact.text
		if i%2 == 0 {
			c := l.chatter[(i/2)%len(l.chatter)]
			line += " " + c
			add(truth{text: c, kind: "chatter"})
		}
		b.WriteString(line + "\n\n")
		add(fact)
		switch i {
		case 3:
			b.WriteString(l.reversal[0] + "\n\n")
			add(truth{text: l.reversal[0], kind: "decision", subject: "family"})
		case n/2 + 1:
			b.WriteString(l.reversal[1] + "\n\n")
			add(truth{text: l.reversal[1], kind: "decision", subject: "family", current: true})
		}
	}
	return b.String(), ts
}

// retention is what one compaction kept of its fixture's ground truth.
type retention struct {
	facts, kept       int // non-chatter current facts, and those in the live file
	priority, prioKep int
	chatter, gone     int
	bent              []string
}

// score reads the live file against the ground truth of the entries
// distilled (1 to upto; the others are verbatim). A fact is kept when
// its sentence is in the file, word for word (whitespace and width
// aside); it is bent when a replaced statement stands unmarked, or a
// current one is marked superseded.
func score(live string, ts []truth, upto int) retention {
	var r retention
	flat := distill.Flat(live)
	// The distilled entries' chatter is gone when the block, where their
	// text now lives, does not hold it (the same words may still stand in
	// an entry kept verbatim).
	block := live
	if i := strings.Index(block, "## Compacted History"); i >= 0 {
		block = block[i+3:]
		if j := strings.Index(block, "\n## "); j >= 0 {
			block = block[:j]
		}
	}
	blockFlat := distill.Flat(block)
	for _, t := range ts {
		if t.kind != "chatter" || t.entry > upto {
			continue
		}
		r.chatter++
		if !strings.Contains(blockFlat, distill.Flat(t.text)) {
			r.gone++
		}
	}
	for _, t := range ts {
		if t.kind == "chatter" {
			continue
		}
		f := distill.Flat(t.text)
		at := strings.Index(flat, f)
		marked := at >= 0 && strings.HasPrefix(strings.TrimSpace(flat[at+len(f):]), "(superseded")
		if !t.current {
			if at >= 0 && !marked {
				r.bent = append(r.bent, "stated as current: "+t.text)
			}
			continue
		}
		if marked {
			r.bent = append(r.bent, "marked superseded: "+t.text)
		}
		if t.entry > upto {
			continue
		}
		r.facts++
		if at >= 0 {
			r.kept++
		}
		if t.kind == "priority" {
			r.priority++
			if at >= 0 {
				r.prioKep++
			}
		}
	}
	return r
}

// TestRetention compacts a diary in each language at no pressure and at
// 1.2, 2 and 3 times over its budget (in lines and in chars), and checks
// what stayed against the ground truth: at no pressure ≥ 95% of the facts
// and ≥ 80% of the chatter gone; at a budget reached ≥ 90% of the priority
// facts; never a bent fact. -retention-table prints the BENCHMARKS.md table.
func TestRetention(t *testing.T) {
	type row struct {
		pressure                  string
		files, reached            int
		facts, kept, prio, prioOK int
		chatter, gone, bent       int
	}
	rows := map[string]*row{}
	order := []string{}
	for _, l := range retentionLangs {
		text, ts := l.fixture(36)
		for _, unit := range []budget.Unit{budget.Lines, budget.Chars} {
			size := budget.Measure(text, unit)
			for _, p := range []struct {
				name  string
				ratio float64
			}{{"none", 0}, {"1.2x", 1.2}, {"2x", 2}, {"3x", 3}} {
				bud := size * 2
				if p.ratio > 0 {
					bud = int(float64(size) / p.ratio)
				}
				key := p.name + " " + string(unit)
				if rows[key] == nil {
					rows[key] = &row{pressure: key}
					order = append(order, key)
				}
				rw := rows[key]
				rw.files++
				root := setup(t, "diary.md", text)
				o := opts(root, "diary.md", bud, 3)
				o.Row.Unit, o.Explicit = unit, true
				pl := Prepare(context.Background(), o)
				name := l.lang + " " + key
				if pl.Report.Status != StatusCompacted {
					if p.ratio == 0 {
						t.Errorf("%s: %s", name, pl.Report.Message)
					}
					continue
				}
				if err := pl.Write(); err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				live, _ := os.ReadFile(filepath.Join(root, "diary.md"))
				r := score(string(live), ts, pl.Report.Compacted)
				rw.reached++
				rw.facts += r.facts
				rw.kept += r.kept
				rw.prio += r.priority
				rw.prioOK += r.prioKep
				rw.chatter += r.chatter
				rw.gone += r.gone
				rw.bent += len(r.bent)
				for _, b := range r.bent {
					t.Errorf("%s: bent: %s", name, b)
				}
				if p.ratio == 0 {
					if 100*r.kept < 95*r.facts {
						t.Errorf("%s: kept %d of %d facts", name, r.kept, r.facts)
					}
					if 100*r.gone < 80*r.chatter {
						t.Errorf("%s: %d of %d chatter sentences gone\n%s", name, r.gone, r.chatter, live)
					}
				}
				if 100*r.prioKep < 90*r.priority {
					t.Errorf("%s: kept %d of %d priority facts\n%s", name, r.prioKep, r.priority, live)
				}
			}
		}
	}
	var b strings.Builder
	b.WriteString("| pressure, unit | files | reached budget | distilled facts kept (non-chatter, current) | distilled priority facts kept | distilled chatter gone | bent |\n|---|---|---|---|---|---|---|\n")
	pct := func(a, n int) string {
		if n == 0 {
			return "—"
		}
		return fmt.Sprintf("%d/%d (%.0f%%)", a, n, 100*float64(a)/float64(n))
	}
	for _, k := range order {
		r := rows[k]
		fmt.Fprintf(&b, "| %s | %d | %d | %s | %s | %s | %d |\n", r.pressure, r.files, r.reached, pct(r.kept, r.facts), pct(r.prioOK, r.prio), pct(r.gone, r.chatter), r.bent)
	}
	if *retentionTable {
		fmt.Print(b.String())
	}
	t.Log("\n" + b.String())
}
