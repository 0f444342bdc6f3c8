// VitePress site of the bread generator corpus: Shiki highlighting with
// twoslash hovers, as documentation sites built with VitePress ship them,
// and a Markdown twin of each page from vitepress-plugin-llms (HTML kept in
// the twins, so that they carry the option table the page shows).
import { transformerTwoslash } from '@shikijs/vitepress-twoslash'
import llmstxt from 'vitepress-plugin-llms'

export default {
  title: 'Larkspur',
  description: 'Layered configuration for services',
  cleanUrls: false,
  markdown: {
    codeTransformers: [transformerTwoslash()],
  },
  vite: { plugins: [llmstxt({ stripHTML: false })] },
  themeConfig: {
    nav: [{ text: 'Guide', link: '/guide' }, { text: 'Reference', link: '/reference' }],
    sidebar: [
      { text: 'Guide', items: [{ text: 'Getting started', link: '/guide' }] },
      { text: 'Reference', items: [{ text: 'Options', link: '/reference' }] },
    ],
  },
}
