package compact

import (
	"strings"
	"testing"
)

// meaningTiers are realistic oldest tiers, one entry per string, in the
// languages of the corpus.
var meaningTiers = map[string][]string{
	"people": {
		"## 2025-01-17 10:00 — Allergy\nOmar is allergic to peanuts and carries an EpiPen.",
		"## 2025-01-20 09:00 — Tea\nLena likes tea, no sugar.",
		"## 2025-02-03 18:30 — Birthday\nLena's birthday is on 14 March; she turns 41.",
	},
	"repo": {
		"## 2024-11-02 — Renovate\nAuto-merge Renovate PRs for patch updates once CI is green.",
		"## 2024-11-10 — Go version\nThe module builds with Go 1.23.4; CI pins golangci-lint v1.62.2.",
		"## 2024-12-01 — Deploys\nNever deploy on Fridays. Deploys run from the release branch at 14:00 UTC.",
	},
	"family": {
		"## 2024-03-02 — Swimming\nThe family goes swimming on Saturdays at 9:00.",
		"## 2024-05-11 — Swimming moved\nInstead of Saturdays, the family now goes swimming on Sundays at 10:00.",
		"## 2024-06-01 — Piano\nMia started piano lessons with Mrs. Keller, 45 minutes every Tuesday.",
	},
	"de": {
		"## 2025-03-04 — Allergie\nJonas hat eine Nussallergie und nimmt Cetirizin 10 mg.",
		"## 2025-03-09 — Auto\nDer Passat muss am 12.05.2025 zum TÜV.",
		"## 2025-03-15 — Regel\nKeine Meetings vor 10 Uhr am Montag.",
	},
	"es": {
		"## 2025-04-01 — Alergia\nSofía es alérgica a la penicilina.",
		"## 2025-04-03 — Servidor\nEl servidor de pruebas usa PostgreSQL 16.2 en el puerto 5433.",
		"## 2025-04-08 — Regla\nNo publicar los viernes después de las 15:00.",
	},
	"zh": {
		"## 2025-05-02 — 过敏\n王芳对青霉素过敏。",
		"## 2025-05-06 — 部署\n生产环境使用 Kubernetes 1.29，部署在周二进行。",
		"## 2025-05-09 — 规则\n不要在周五合并大的改动。",
	},
	"ja": {
		"## 2025-06-01 — アレルギー\n佐藤さんは卵アレルギーです。",
		"## 2025-06-04 — バージョン\nアプリは Node.js 20.11 で動かす。",
		"## 2025-06-07 — ルール\n金曜日にはデプロイしない。",
	},
	"ko": {
		"## 2025-07-01 — 알레르기\n민준은 땅콩 알레르기가 있다.",
		"## 2025-07-03 — 서버\n스테이징 서버는 포트 8443을 사용한다.",
		"## 2025-07-05 — 규칙\n금요일에는 배포하지 않는다.",
	},
	"attrs": {
		"## 2025-03-01 — Omar\nOmar has two kids, Sami and Noor.",
		"## 2025-03-02 — Priya\nPriya is the tech lead for billing and prefers async reviews.",
		"## 2025-03-03 — Cafe\nThe cafe on Elm Street was closed for repairs.",
		"## 2025-03-04 — Calls\nNever schedule calls with Priya before 9:00.",
	},
	"de-attrs": {
		"## 2025-03-05 — Jonas\nJonas hat zwei Kinder und ist 41 Jahre alt.",
		"## 2025-03-06 — Anna\nAnna ist Teamleiterin im Plattform-Team.",
		"## 2025-03-07 — Deploys\nWir haben entschieden, nur dienstags zu deployen.",
		"## 2025-03-08 — Deploys geändert\nStattdessen deployen wir jetzt donnerstags.",
	},
	"es-attrs": {
		"## 2025-03-09 — Sofía\nSofía tiene tres hijos.",
		"## 2025-03-10 — Carlos\nCarlos prefiere reuniones por la tarde.",
		"## 2025-03-11 — Pruebas\nEl servidor de pruebas usa el puerto 5433.",
	},
	"zh-attrs": {
		"## 2025-03-12 — 王芳\n王芳有两个孩子。",
		"## 2025-03-13 — 李雷\n李雷是后端负责人，喜欢喝茶。",
		"## 2025-03-14 — 服务器\n测试服务器使用端口 5433。",
	},
	"ja-attrs": {
		"## 2025-03-15 — 佐藤\n佐藤さんは猫が好きです。",
		"## 2025-03-16 — 田中\n田中さんは東京に住んでいます。",
		"## 2025-03-17 — サーバー\nサーバーはポート 8080 を使う。",
	},
	"ko-attrs": {
		"## 2025-03-18 — 민준\n민준은 고양이를 좋아한다.",
		"## 2025-03-19 — 지수\n지수는 디자인 팀장이다.",
		"## 2025-03-20 — 서버\n서버는 포트 8443을 사용한다.",
	},
}

// meaningCases are summaries of those tiers: faithful ones (terse, every
// fact kept, reworded) that must pass, and adversarial ones that must be
// refused.
var meaningCases = []struct {
	tier, name string
	bullets    []string
	faithful   bool
}{
	// people
	{"people", "verbatim", []string{"2025-01-17: Omar is allergic to peanuts and carries an EpiPen.", "2025-01-20: Lena likes tea, no sugar.", "2025-02-03: Lena's birthday is on 14 March; she turns 41."}, true},
	{"people", "terse", []string{"Omar: allergic to peanuts, carries EpiPen", "Lena: tea, no sugar", "Lena: birthday 14 March, turns 41"}, true},
	{"people", "reworded", []string{"Omar has a peanut allergy and always carries his EpiPen.", "Lena takes her tea without sugar.", "Lena turns 41 on 14 March."}, true},
	{"people", "dated terse", []string{"2025-01-17 — Omar allergic to peanuts (EpiPen)", "2025-01-20 — Lena: tea, no sugar", "2025-02-03 — Lena birthday 14 March, 41"}, true},
	{"people", "merged", []string{"Omar is allergic to peanuts and carries an EpiPen; Lena likes tea without sugar; Lena's birthday is 14 March (turns 41)."}, true},
	{"people", "invented", []string{"Omar is allergic to peanuts and carries an EpiPen.", "The user likes things."}, false},
	{"people", "misattributed", []string{"Lena is allergic to peanuts and carries an EpiPen.", "Omar likes tea, no sugar."}, false},
	{"people", "altered number", []string{"Omar is allergic to peanuts and carries an EpiPen.", "Lena's birthday is on 14 March; she turns 42."}, false},
	{"people", "allergy dropped", []string{"Lena likes tea, no sugar.", "Lena's birthday is on 14 March; she turns 41."}, false},
	{"people", "flip", []string{"Omar is not allergic to peanuts and carries an EpiPen.", "Lena likes tea, no sugar."}, false},
	{"people", "garbage", []string{"asdf qwer zxcv", "lorem ipsum dolor"}, false},
	{"people", "empty", nil, false},
	// repo
	{"repo", "verbatim", []string{"Auto-merge Renovate PRs for patch updates once CI is green.", "The module builds with Go 1.23.4; CI pins golangci-lint v1.62.2.", "Never deploy on Fridays; deploys run from the release branch at 14:00 UTC."}, true},
	{"repo", "terse", []string{"Renovate: auto-merge patch PRs when CI green", "Go 1.23.4, golangci-lint v1.62.2 pinned in CI", "No deploys on Fridays; release branch, 14:00 UTC"}, true},
	{"repo", "reworded", []string{"Patch updates from Renovate are auto-merged once CI passes green.", "Builds use Go 1.23.4 and CI pins golangci-lint v1.62.2.", "Never deploy on Fridays. Deploys go out from the release branch at 14:00 UTC."}, true},
	{"repo", "dated", []string{"2024-11-02 — auto-merge Renovate patch PRs once CI is green", "2024-11-10 — Go 1.23.4; golangci-lint v1.62.2", "2024-12-01 — never deploy on Fridays; release branch at 14:00 UTC"}, true},
	{"repo", "two bullets", []string{"Auto-merge Renovate PRs (patch updates, CI green).", "Never deploy on Fridays."}, true},
	{"repo", "flip", []string{"Do not auto-merge Renovate PRs (confirmed again).", "Never deploy on Fridays."}, false},
	{"repo", "flip friday", []string{"Auto-merge Renovate PRs for patch updates once CI is green.", "Deploy on Fridays from the release branch."}, false},
	{"repo", "altered version", []string{"The module builds with Go 1.22.4; CI pins golangci-lint v1.62.2."}, false},
	{"repo", "altered time", []string{"Never deploy on Fridays; deploys run from the release branch at 16:00 UTC."}, false},
	{"repo", "invented", []string{"Auto-merge Renovate PRs.", "The team prefers Kubernetes for everything."}, false},
	// family
	{"family", "current only", []string{"The family goes swimming on Sundays at 10:00 (moved from Saturdays).", "Mia: piano lessons with Mrs. Keller, 45 minutes every Tuesday."}, true},
	{"family", "history marked", []string{"Swimming was on Saturdays at 9:00 until 2024-05-11.", "Instead of Saturdays, the family now swims on Sundays at 10:00.", "Mia started piano with Mrs. Keller: 45 minutes every Tuesday."}, true},
	{"family", "terse", []string{"Swimming: Sundays 10:00 now, instead of Saturdays", "Mia: piano, Mrs. Keller, Tuesdays, 45 minutes"}, true},
	{"family", "reworded", []string{"Since May 2024 the family swims on Sundays at 10:00 instead of Saturdays.", "Mia takes 45-minute piano lessons with Mrs. Keller every Tuesday."}, true},
	{"family", "superseded restored", []string{"The family goes swimming on Saturdays at 9:00.", "Mia started piano lessons with Mrs. Keller, 45 minutes every Tuesday."}, false},
	{"family", "wrong person", []string{"The family now goes swimming on Sundays at 10:00.", "Lena started piano lessons with Mrs. Keller, 45 minutes every Tuesday."}, false},
	{"family", "altered minutes", []string{"The family now goes swimming on Sundays at 10:00.", "Mia started piano lessons with Mrs. Keller, 60 minutes every Tuesday."}, false},
	// de
	{"de", "verbatim", []string{"Jonas hat eine Nussallergie und nimmt Cetirizin 10 mg.", "Der Passat muss am 12.05.2025 zum TÜV.", "Keine Meetings vor 10 Uhr am Montag."}, true},
	{"de", "terse", []string{"Jonas: Nussallergie, Cetirizin 10 mg", "Passat: TÜV am 12.05.2025", "Montag: keine Meetings vor 10 Uhr"}, true},
	{"de", "reworded", []string{"Jonas ist gegen Nüsse allergisch (Nussallergie) und nimmt täglich Cetirizin 10 mg.", "TÜV für den Passat am 12.05.2025.", "Am Montag keine Meetings vor 10 Uhr."}, true},
	{"de", "flip", []string{"Jonas hat eine Nussallergie und nimmt Cetirizin 10 mg.", "Meetings vor 10 Uhr am Montag."}, false},
	{"de", "altered dose", []string{"Jonas hat eine Nussallergie und nimmt Cetirizin 20 mg.", "Keine Meetings vor 10 Uhr am Montag."}, false},
	{"de", "allergy dropped", []string{"Der Passat muss am 12.05.2025 zum TÜV.", "Keine Meetings vor 10 Uhr am Montag."}, false},
	{"de", "invented", []string{"Jonas hat eine Nussallergie und nimmt Cetirizin 10 mg.", "Der Nutzer mag Dinge."}, false},
	// es
	{"es", "verbatim", []string{"Sofía es alérgica a la penicilina.", "El servidor de pruebas usa PostgreSQL 16.2 en el puerto 5433.", "No publicar los viernes después de las 15:00."}, true},
	{"es", "terse", []string{"Sofía: alérgica a la penicilina", "Servidor de pruebas: PostgreSQL 16.2, puerto 5433", "No publicar viernes después de las 15:00"}, true},
	{"es", "reworded", []string{"Sofía tiene alergia a la penicilina (alérgica).", "Pruebas: servidor con PostgreSQL 16.2 en el puerto 5433.", "Los viernes, no publicar después de las 15:00."}, true},
	{"es", "flip", []string{"Sofía es alérgica a la penicilina.", "Publicar los viernes después de las 15:00."}, false},
	{"es", "altered port", []string{"Sofía es alérgica a la penicilina.", "El servidor de pruebas usa PostgreSQL 16.2 en el puerto 5432."}, false},
	{"es", "allergy dropped", []string{"El servidor de pruebas usa PostgreSQL 16.2 en el puerto 5433.", "No publicar los viernes después de las 15:00."}, false},
	// zh
	{"zh", "verbatim", []string{"王芳对青霉素过敏。", "生产环境使用 Kubernetes 1.29，部署在周二进行。", "不要在周五合并大的改动。"}, true},
	{"zh", "terse", []string{"王芳：青霉素过敏", "生产环境 Kubernetes 1.29，周二部署", "不要在周五合并大的改动"}, true},
	{"zh", "flip", []string{"王芳对青霉素过敏。", "要在周五合并大的改动。"}, false},
	{"zh", "altered version", []string{"王芳对青霉素过敏。", "生产环境使用 Kubernetes 1.30，部署在周二进行。"}, false},
	{"zh", "allergy dropped", []string{"生产环境使用 Kubernetes 1.29，部署在周二进行。", "不要在周五合并大的改动。"}, false},
	// ja
	{"ja", "verbatim", []string{"佐藤さんは卵アレルギーです。", "アプリは Node.js 20.11 で動かす。", "金曜日にはデプロイしない。"}, true},
	{"ja", "terse", []string{"佐藤さん：卵アレルギー", "アプリ：Node.js 20.11", "金曜日にはデプロイしない"}, true},
	{"ja", "flip", []string{"佐藤さんは卵アレルギーです。", "金曜日にはデプロイする。"}, false},
	{"ja", "altered version", []string{"佐藤さんは卵アレルギーです。", "アプリは Node.js 18.11 で動かす。"}, false},
	{"ja", "allergy dropped", []string{"アプリは Node.js 20.11 で動かす。", "金曜日にはデプロイしない。"}, false},
	// ko
	{"ko", "verbatim", []string{"민준은 땅콩 알레르기가 있다.", "스테이징 서버는 포트 8443을 사용한다.", "금요일에는 배포하지 않는다."}, true},
	{"ko", "terse", []string{"민준: 땅콩 알레르기", "스테이징 서버 포트 8443", "금요일에는 배포하지 않는다"}, true},
	{"ko", "flip", []string{"민준은 땅콩 알레르기가 있다.", "금요일에는 배포한다."}, false},
	{"ko", "altered port", []string{"민준은 땅콩 알레르기가 있다.", "스테이징 서버는 포트 9443을 사용한다."}, false},
	{"ko", "allergy dropped", []string{"스테이징 서버는 포트 8443을 사용한다.", "금요일에는 배포하지 않는다."}, false},
	// more faithful rewordings
	{"people", "names first", []string{"Omar — peanut allergy, carries an EpiPen", "Lena — likes her tea with no sugar", "Lena — birthday 14 March, turns 41"}, true},
	{"people", "filler dropped", []string{"Omar allergic to peanuts; carries EpiPen.", "Lena: tea, no sugar; birthday 14 March (41)."}, true},
	{"people", "dated merged", []string{"2025-01-17: Omar is allergic to peanuts and carries an EpiPen.", "2025-01-20, 2025-02-03: Lena likes tea with no sugar; her birthday is 14 March, she turns 41."}, true},
	{"repo", "decisions", []string{"Decision: auto-merge Renovate patch PRs once CI is green.", "Rule: never deploy on Fridays.", "Toolchain: Go 1.23.4; golangci-lint v1.62.2 pinned in CI."}, true},
	{"repo", "keyword dump", []string{"Renovate auto-merge (patch, CI green); Go 1.23.4; golangci-lint v1.62.2; no Friday deploys; release branch 14:00 UTC"}, true},
	{"repo", "imperative", []string{"Auto-merge patch PRs from Renovate when CI is green.", "Do not deploy on Fridays; deploy from the release branch at 14:00 UTC."}, true},
	{"family", "arrow", []string{"Swimming: Saturdays 9:00 → Sundays 10:00 (since 2024-05-11).", "Mia: piano lessons with Mrs. Keller, 45 minutes, Tuesdays."}, true},
	{"family", "current terse", []string{"Family swims Sundays 10:00 instead of Saturdays.", "Mia: piano with Mrs. Keller every Tuesday (45 minutes)."}, true},
	{"de", "stichpunkte", []string{"Jonas — Nussallergie; Cetirizin 10 mg", "TÜV Passat: 12.05.2025", "Keine Meetings vor 10 Uhr (Montag)"}, true},
	{"de", "datiert", []string{"2025-03-04: Jonas hat eine Nussallergie, nimmt Cetirizin 10 mg.", "2025-03-09: Passat am 12.05.2025 zum TÜV.", "2025-03-15: Montags keine Meetings vor 10 Uhr."}, true},
	{"es", "fechado", []string{"2025-04-01: Sofía es alérgica a la penicilina.", "2025-04-03: pruebas con PostgreSQL 16.2, puerto 5433.", "2025-04-08: no publicar los viernes después de las 15:00."}, true},
	{"es", "compacto", []string{"Sofía: alergia a la penicilina", "PostgreSQL 16.2 (puerto 5433) en el servidor de pruebas", "Viernes: no publicar después de las 15:00"}, true},
	{"zh", "dated", []string{"2025-05-02：王芳对青霉素过敏", "2025-05-06：生产环境 Kubernetes 1.29，周二部署", "2025-05-09：不要在周五合并大的改动"}, true},
	{"zh", "reworded", []string{"王芳青霉素过敏。", "周二部署，生产环境用 Kubernetes 1.29。", "周五不要合并大的改动。"}, true},
	{"ja", "dated", []string{"2025-06-01：佐藤さんは卵アレルギー", "2025-06-04：アプリは Node.js 20.11", "2025-06-07：金曜日にはデプロイしない"}, true},
	{"ko", "dated", []string{"2025-07-01: 민준은 땅콩 알레르기가 있다", "2025-07-03: 스테이징 서버 포트 8443", "2025-07-05: 금요일에는 배포하지 않는다"}, true},
	// more adversarial
	{"people", "allergy moved to Lena", []string{"Lena: allergic to peanuts, carries EpiPen", "Omar: tea, no sugar", "Lena: birthday 14 March, turns 41"}, false},
	{"people", "altered date", []string{"Omar is allergic to peanuts and carries an EpiPen.", "Lena likes tea, no sugar.", "Lena's birthday is on 15 March; she turns 41."}, false},
	{"people", "invented person", []string{"Omar is allergic to peanuts and carries an EpiPen.", "Karim likes tea, no sugar."}, false},
	{"repo", "altered lint", []string{"Auto-merge Renovate PRs for patch updates once CI is green.", "CI pins golangci-lint v1.61.0."}, false},
	{"repo", "flip never", []string{"Auto-merge Renovate PRs for patch updates once CI is green.", "Always deploy on Fridays."}, false},
	{"repo", "invented rule", []string{"Auto-merge Renovate PRs.", "Every commit must be signed with GPG."}, false},
	{"family", "time moved", []string{"The family now goes swimming on Sundays at 11:00.", "Mia: piano with Mrs. Keller, 45 minutes every Tuesday."}, false},
	{"de", "falsches Datum", []string{"Jonas hat eine Nussallergie und nimmt Cetirizin 10 mg.", "Der Passat muss am 12.06.2025 zum TÜV."}, false},
	{"es", "sin alergia", []string{"Sofía no es alérgica a la penicilina.", "No publicar los viernes después de las 15:00."}, false},
	{"zh", "invented", []string{"王芳对青霉素过敏。", "团队喜欢喝咖啡。"}, false},
	{"ja", "invented", []string{"佐藤さんは卵アレルギーです。", "チームはコーヒーが好きです。"}, false},
	{"ko", "invented", []string{"민준은 땅콩 알레르기가 있다.", "팀은 커피를 좋아한다."}, false},
	// people's attributes and decisions as priority facts, and declared drops
	{"attrs", "verbatim", []string{"Omar has two kids, Sami and Noor.", "Priya is the tech lead for billing and prefers async reviews.", "The cafe on Elm Street was closed for repairs.", "Never schedule calls with Priya before 9:00."}, true},
	{"attrs", "terse", []string{"Omar: two kids, Sami and Noor", "Priya: tech lead for billing, prefers async reviews", "No calls with Priya before 9:00"}, true},
	{"attrs", "observation left out", []string{"Omar has two kids (Sami, Noor).", "Priya is the billing tech lead; prefers async reviews.", "Never schedule calls with Priya before 9:00."}, true},
	{"attrs", "declared drop", []string{"Omar has two kids, Sami and Noor.", "Never schedule calls with Priya before 9:00.", "Dropped: 2025-03-02 Priya, tech lead for billing, prefers async reviews"}, true},
	{"attrs", "two declared", []string{"Never schedule calls with Priya before 9:00.", "Dropped: Omar's two kids, Sami and Noor", "**Dropped:** Priya is the tech lead for billing"}, true},
	{"attrs", "kids dropped silently", []string{"Priya is the tech lead for billing and prefers async reviews.", "Never schedule calls with Priya before 9:00."}, false},
	{"attrs", "rule dropped silently", []string{"Omar has two kids, Sami and Noor.", "Priya is the tech lead for billing and prefers async reviews."}, false},
	{"attrs", "kids under Priya", []string{"Priya has two kids, Sami and Noor.", "Omar is the tech lead for billing and prefers async reviews.", "Never schedule calls with Priya before 9:00."}, false},
	{"attrs", "altered kids", []string{"Omar has three kids, Sami and Noor.", "Priya is the tech lead for billing and prefers async reviews.", "Never schedule calls with Priya before 9:00."}, false},
	{"attrs", "altered time", []string{"Omar has two kids, Sami and Noor.", "Priya is the tech lead for billing and prefers async reviews.", "Never schedule calls with Priya before 10:00."}, false},
	{"attrs", "flip rule", []string{"Omar has two kids, Sami and Noor.", "Priya is the tech lead for billing and prefers async reviews.", "Schedule calls with Priya before 9:00."}, false},
	{"attrs", "invented attribute", []string{"Omar has two kids, Sami and Noor.", "Priya is the tech lead for billing and prefers async reviews.", "Never schedule calls with Priya before 9:00.", "Omar is vegan."}, false},
	{"attrs", "invented drop", []string{"Omar has two kids, Sami and Noor.", "Priya is the tech lead for billing and prefers async reviews.", "Never schedule calls with Priya before 9:00.", "Dropped: Karim's shellfish intolerance"}, false},
	{"attrs", "garbage", []string{"- - -", "xyzzy plugh"}, false},
	{"de-attrs", "verbatim", []string{"Jonas hat zwei Kinder und ist 41 Jahre alt.", "Anna ist Teamleiterin im Plattform-Team.", "Stattdessen deployen wir jetzt donnerstags (vorher dienstags)."}, true},
	{"de-attrs", "knapp", []string{"Jonas: zwei Kinder, 41 Jahre alt", "Anna: Teamleiterin, Plattform-Team", "Deploys jetzt donnerstags statt dienstags"}, true},
	{"de-attrs", "Verzicht erklärt", []string{"Jonas hat zwei Kinder und ist 41 Jahre alt.", "Deploys jetzt donnerstags statt dienstags.", "Dropped: Anna ist Teamleiterin im Plattform-Team"}, true},
	{"de-attrs", "Kinder still weg", []string{"Anna ist Teamleiterin im Plattform-Team.", "Deploys jetzt donnerstags statt dienstags."}, false},
	{"de-attrs", "Alter geändert", []string{"Jonas hat zwei Kinder und ist 42 Jahre alt.", "Anna ist Teamleiterin im Plattform-Team.", "Deploys jetzt donnerstags."}, false},
	{"de-attrs", "falsche Person", []string{"Anna hat zwei Kinder und ist 41 Jahre alt.", "Jonas ist Teamleiter im Plattform-Team.", "Deploys jetzt donnerstags."}, false},
	{"de-attrs", "Überholtes wiederhergestellt", []string{"Jonas hat zwei Kinder und ist 41 Jahre alt.", "Anna ist Teamleiterin im Plattform-Team.", "Wir haben entschieden, nur dienstags zu deployen."}, false},
	{"es-attrs", "literal", []string{"Sofía tiene tres hijos.", "Carlos prefiere reuniones por la tarde.", "El servidor de pruebas usa el puerto 5433."}, true},
	{"es-attrs", "breve", []string{"Sofía: tres hijos", "Carlos: prefiere reuniones por la tarde", "Pruebas: puerto 5433"}, true},
	{"es-attrs", "descartado declarado", []string{"Sofía tiene tres hijos.", "El servidor de pruebas usa el puerto 5433.", "Dropped: Carlos prefiere reuniones por la tarde"}, true},
	{"es-attrs", "hijos omitidos", []string{"Carlos prefiere reuniones por la tarde.", "El servidor de pruebas usa el puerto 5433."}, false},
	{"es-attrs", "número cambiado", []string{"Sofía tiene cuatro hijos.", "Carlos prefiere reuniones por la tarde.", "El servidor de pruebas usa el puerto 5432."}, false},
	{"es-attrs", "otra persona", []string{"Carlos tiene tres hijos.", "Sofía prefiere reuniones por la tarde.", "El servidor de pruebas usa el puerto 5433."}, false},
	{"zh-attrs", "原文", []string{"王芳有两个孩子。", "李雷是后端负责人，喜欢喝茶。", "测试服务器使用端口 5433。"}, true},
	{"zh-attrs", "简短", []string{"王芳：两个孩子", "李雷：后端负责人，喜欢喝茶", "测试服务器端口 5433"}, true},
	{"zh-attrs", "声明删除", []string{"王芳有两个孩子。", "测试服务器使用端口 5433。", "Dropped: 李雷是后端负责人，喜欢喝茶"}, true},
	{"zh-attrs", "孩子被删", []string{"李雷是后端负责人，喜欢喝茶。", "测试服务器使用端口 5433。"}, false},
	{"zh-attrs", "端口改了", []string{"王芳有两个孩子。", "李雷是后端负责人，喜欢喝茶。", "测试服务器使用端口 5432。"}, false},
	{"zh-attrs", "编造", []string{"王芳有两个孩子。", "李雷是后端负责人，喜欢喝茶。", "测试服务器使用端口 5433。", "王芳喜欢跑步。"}, false},
	{"ja-attrs", "原文", []string{"佐藤さんは猫が好きです。", "田中さんは東京に住んでいます。", "サーバーはポート 8080 を使う。"}, true},
	{"ja-attrs", "簡潔", []string{"佐藤さん：猫が好き", "田中さん：東京に住んでいる", "サーバー：ポート 8080"}, true},
	{"ja-attrs", "削除を宣言", []string{"佐藤さんは猫が好きです。", "サーバーはポート 8080 を使う。", "Dropped: 田中さんは東京に住んでいます"}, true},
	{"ja-attrs", "黙って削除", []string{"田中さんは東京に住んでいます。", "サーバーはポート 8080 を使う。"}, false},
	{"ja-attrs", "否定に反転", []string{"佐藤さんは猫が好きではない。", "田中さんは東京に住んでいます。", "サーバーはポート 8080 を使う。"}, false},
	{"ko-attrs", "원문", []string{"민준은 고양이를 좋아한다.", "지수는 디자인 팀장이다.", "서버는 포트 8443을 사용한다."}, true},
	{"ko-attrs", "간결", []string{"민준: 고양이를 좋아함", "지수: 디자인 팀장", "서버 포트 8443"}, true},
	{"ko-attrs", "삭제 선언", []string{"민준은 고양이를 좋아한다.", "서버는 포트 8443을 사용한다.", "Dropped: 지수는 디자인 팀장이다"}, true},
	{"ko-attrs", "조용히 삭제", []string{"지수는 디자인 팀장이다.", "서버는 포트 8443을 사용한다."}, false},
	{"ko-attrs", "포트 변경", []string{"민준은 고양이를 좋아한다.", "지수는 디자인 팀장이다.", "서버는 포트 9443을 사용한다."}, false},
}

// TestMeaningCorpus: every adversarial summary is refused, and at least
// 95% of the faithful ones are accepted. The rates are logged.
func TestMeaningCorpus(t *testing.T) {
	var faithful, accepted, adversarial, refused int
	for _, c := range meaningCases {
		entries, ok := meaningTiers[c.tier]
		if !ok {
			t.Fatalf("%s/%s: no tier", c.tier, c.name)
		}
		faults := meaningFaults(plainTier(entries), c.bullets)
		if c.faithful {
			faithful++
			if len(faults) == 0 {
				accepted++
			} else {
				t.Logf("faithful %s/%s refused: %s", c.tier, c.name, strings.Join(faults, "; "))
			}
			continue
		}
		adversarial++
		if len(faults) > 0 {
			refused++
		} else {
			t.Errorf("adversarial %s/%s accepted", c.tier, c.name)
		}
	}
	t.Logf("faithful: %d/%d accepted; adversarial: %d/%d refused", accepted, faithful, refused, adversarial)
	if float64(accepted) < 0.95*float64(faithful) {
		t.Errorf("only %d of %d faithful summaries accepted (< 95%%)", accepted, faithful)
	}
}

// FuzzMeaningFaults: any tier and any summary are judged without a panic,
// and an empty summary is always refused.
func FuzzMeaningFaults(f *testing.F) {
	f.Add("## 2025-01-17 — Allergy\nOmar is allergic to peanuts.", "Omar: peanut allergy\nDo not auto-merge; 1-3")
	f.Add("密码是 qwe789xyz。不要在周五合并。", "- 不要 · 1.2.3 → 2024")
	f.Fuzz(func(t *testing.T, tier, summary string) {
		entries := strings.Split(tier, "\n\n")
		_ = meaningFaults(plainTier(entries), strings.Split(summary, "\n"))
		if len(meaningFaults(plainTier(entries), nil)) == 0 {
			t.Fatal("an empty summary was accepted")
		}
	})
}
