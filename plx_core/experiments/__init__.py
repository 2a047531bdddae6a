"""Section 6 of the paper, re-run: F1 tables against scikit-learn baselines, explanation
accuracy against SHAP, knowledge incorporation and KB-size timings.

    python -m plx_core.experiments {table2,table3,table4,fig2,fig3,fig4,variants}         --runs R --out DIR [--quick] [--balance before|train|both] [--sets a,b] [--no-png]

Every experiment writes, into DIR, `<name>.csv` (one row per measurement), `<name>_summary.csv`,
`<name>.md` (our numbers beside the paper's) and `<name>.html` (+ `<name>.png` when plotly's
kaleido finds a Chrome; otherwise the HTML only, and the markdown says so).

Protocol. Run r uses seed r for the split (70/30, stratified) and for every seeded model, so a
run is reproducible on its own. `--balance before` is the paper's protocol (replicate minority
rows, then split: replicas of one row can land on both sides); `train` balances the training
part only (the test part keeps the true class mix and shares no row with training). The
synthetic sets are generated balanced (`plx_core.datasets.synthetic`), so there both protocols
give the same split. F1 is that of the data set's positive class. Baselines are those of
`plx_core.baselines` (one-hot features, missing values as their own category): CART =
DecisionTreeClassifier, MLP = MLPClassifier((12, 10), max_iter=1000), Forest =
RandomForestClassifier(100), SVM = SVC().
"""
