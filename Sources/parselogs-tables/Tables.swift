// Writes the generated table of what the rule index reads from each pattern of the catalogue
// (`PatternFiling`), for scripts/update-tables:
//   parselogs-tables > Sources/UbiquityLogKit/Classifying/Search/PatternFiling+Catalog.swift
import UbiquityLogKit

let out = OutputWriter(descriptor: 1)
out.write(PatternFiling.catalogSource(Catalog.standardRules))
out.flush()
