// `npm run docs:check`: local links and #anchors in the Markdown files, checked offline. No
// repository: links are checked as files of this working tree, never against a hosting site.
import remarkValidateLinks from 'remark-validate-links'

export default { plugins: [[remarkValidateLinks, { repository: false }]] }
