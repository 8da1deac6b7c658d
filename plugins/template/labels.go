package template

// labels are the words a draft or report is written in; the structure and
// the data are the same in every language.
type labels struct {
	Answer, Sources, Summary, Details, ReviewNotes, Mode, Gaps, Addressed                 string
	TopAuthors, Projects, TimeSpan, Records, More, NoURL, Report, Confidence              string
	RequestedPeriod, PeriodFor, InPeriod, SourceTiers, AllFlagged, WithoutURL, FromSource string
	// Counts of the listed records when the engine held more: they say
	// they are of a sample ("the newest %d records").
	ProjectsSample, InPeriodSample, AllFlaggedSample string
	// A group's records by state, and the newest CI run with an outcome.
	States, StatesSample, LatestFinished string
	// Empty periods: the heading of the nearest activity, "no commits in the
	// requested period (…)" (%[1]s the kinds, %[2]s the period), what is
	// nearest before or after it, and the confidence reasons.
	Nearest, NoneInPeriod, NearestBefore, NearestAfter, EmptyPeriod, Partial string
	Kinds                                                                    map[string]string
	// Line statistics: the section's heading, what it says without them,
	// the totals (%d added, %d deleted, %d changed, %d commits), the
	// commits without them, the rankings and their lines.
	LineStats, NoLineStats, LinesTotal, LinesWithout, LinesMerges, LinesClipped, TopFiles, TopDirs string
	LargestCommits, LinesOf, CommitsTouching, OtherPaths                                           string
	// One holds the singular of a count's format, by its plural, where the
	// language has one ("%d commit" for "%d commits").
	One map[string]string
}

// counted is format for a count of n: its singular when n is 1.
func (l *labels) counted(format string, n int) string {
	if one, ok := l.One[format]; ok && n == 1 {
		return one
	}
	return format
}

var labelSets = map[string]*labels{
	"en": {
		Answer: "Answer", Sources: "Sources", Summary: "Summary", Details: "Details",
		ReviewNotes: "Review notes", Mode: "Mode and source tiers", Gaps: "Open gaps", Addressed: "Review addressed",
		TopAuthors: "Top authors", Projects: "Projects", TimeSpan: "Time span", Records: "records",
		More: "… and %d more", NoURL: "no URL", Report: "Report", Confidence: "Confidence",
		RequestedPeriod: "Requested period", PeriodFor: "%s for %s", InPeriod: "%d of %d records fall in it",
		SourceTiers: "Source tiers", AllFlagged: "all %d records come from unknown or tier ≥ 3 sources: %s",
		ProjectsSample: "Projects in the newest %d records", InPeriodSample: "%d of the newest %d records fall in it",
		States: "States", StatesSample: "States of the newest %d", LatestFinished: "Latest finished",
		AllFlaggedSample: "all of the newest %d records come from unknown or tier ≥ 3 sources: %s",
		WithoutURL:       "Cited without a URL", FromSource: "%s (%s)",
		Nearest: "Nearest activity outside the requested period", NoneInPeriod: "No %[1]s in the requested period (%[2]s)",
		NearestBefore: "the most recent before it is %s", NearestAfter: "the oldest after it is %s",
		EmptyPeriod:  "nothing in the requested period: the records shown are the nearest activity outside it",
		Partial:      "partial answer: %s",
		LineStats:    "Line statistics",
		NoLineStats:  "The source gave no line statistics for these commits: files, directories and lines changed cannot be counted; the records listed are commits only.",
		LinesTotal:   "Lines: +%d added, -%d deleted (%d changed) in %d commits",
		LinesWithout: "%d commits carry no line statistics (not counted above)",
		LinesMerges:  "%d merge commits, which carry no line statistics (as in git log --numstat)",
		LinesClipped: "%d commits changed more files than the source lists for a commit: their other files are not in the counts below, which may be low by that much",
		TopFiles:     "Files changed most (by commits touching them)", TopDirs: "Directories changed most (by commits touching them)",
		LargestCommits: "Largest commits (by lines changed)", LinesOf: "%d lines (+%d -%d)",
		CommitsTouching: "%d commits", OtherPaths: "%d more touches of paths beyond the counted ones",
		One: map[string]string{
			"Lines: +%d added, -%d deleted (%d changed) in %d commits":                   "Lines: +%d added, -%d deleted (%d changed) in %d commit",
			"%d commits carry no line statistics (not counted above)":                    "%d commit carries no line statistics (not counted above)",
			"%d merge commits, which carry no line statistics (as in git log --numstat)": "%d merge commit, which carries no line statistics (as in git log --numstat)",
			"%d commits": "%d commit",
			"%d commits changed more files than the source lists for a commit: their other files are not in the counts below, which may be low by that much": "%d commit changed more files than the source lists for a commit: its other files are not in the counts below, which may be low by that much",
		},
		Kinds: map[string]string{
			"commit": "Commits", "issue": "Issues", "merge_request": "Merge requests", "pull_request": "Pull requests",
			"pipeline": "Pipelines", "release": "Releases", "document": "Documents",
		},
	},
	"zh": {
		Answer: "回答", Sources: "來源", Summary: "摘要", Details: "詳細內容",
		ReviewNotes: "審查意見", Mode: "模式與來源等級", Gaps: "尚待補足", Addressed: "已處理的審查意見",
		TopAuthors: "主要作者", Projects: "專案", TimeSpan: "時間範圍", Records: "筆記錄",
		More: "… 另有 %d 筆", NoURL: "無網址", Report: "報告", Confidence: "可信度",
		RequestedPeriod: "查詢期間", PeriodFor: "%s（%s）", InPeriod: "%d／%d 筆在此期間",
		SourceTiers: "來源等級", AllFlagged: "全部 %d 筆來自未知或第 3 級以上的來源：%s",
		ProjectsSample: "最新 %d 筆記錄的專案", InPeriodSample: "最新 %[2]d 筆中 %[1]d 筆在此期間",
		States: "狀態", StatesSample: "最新 %d 筆的狀態", LatestFinished: "最近一次完成",
		AllFlaggedSample: "最新 %d 筆全部來自未知或第 3 級以上的來源：%s",
		WithoutURL:       "無網址的引用", FromSource: "%s（%s）",
		Nearest: "查詢期間外最接近的活動", NoneInPeriod: "查詢期間（%[2]s）內沒有%[1]s",
		NearestBefore: "之前最近的一筆是 %s", NearestAfter: "之後最早的一筆是 %s",
		EmptyPeriod:  "查詢期間內沒有資料：所列記錄是期間外最接近的活動",
		Partial:      "部分回答：%s",
		LineStats:    "行數統計",
		NoLineStats:  "來源未提供這些提交的行數統計：無法計算變更最多的檔案、目錄或行數；所列記錄僅為提交。",
		LinesTotal:   "行數：新增 +%d、刪除 -%d（共變更 %d 行），%d 筆提交",
		LinesWithout: "%d 筆提交沒有行數統計（未計入上述數字）",
		LinesMerges:  "%d 筆合併提交，沒有行數統計（與 git log --numstat 相同）",
		LinesClipped: "%d 筆提交變更的檔案數超過來源每筆列出的上限：其餘檔案未計入下列數字，可能因此偏低",
		TopFiles:     "變更最多的檔案（依涉及的提交數）", TopDirs: "變更最多的目錄（依涉及的提交數）",
		LargestCommits: "最大的提交（依變更行數）", LinesOf: "%d 行（+%d -%d）",
		CommitsTouching: "%d 筆提交", OtherPaths: "另有 %d 次涉及未計名的路徑",
		Kinds: map[string]string{
			"commit": "提交", "issue": "議題", "merge_request": "合併請求", "pull_request": "拉取請求",
			"pipeline": "管線", "release": "發行版本", "document": "文件",
		},
	},
}

// labelsFor returns the labels of language, English when it is unknown.
func labelsFor(language string) *labels {
	if l, ok := labelSets[language]; ok {
		return l
	}
	return labelSets["en"]
}

// kindHeading is the plural heading of a record kind.
func (l *labels) kindHeading(kind string) string {
	if h, ok := l.Kinds[kind]; ok {
		return h
	}
	if kind == "" {
		return "Other"
	}
	return kind
}
