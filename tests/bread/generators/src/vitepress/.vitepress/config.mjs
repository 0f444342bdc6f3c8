// VitePress site of the bread generator corpus: Shiki highlighting with
// twoslash hovers, as documentation sites built with VitePress ship them.
import { transformerTwoslash } from '@shikijs/vitepress-twoslash'

export default {
  title: 'Larkspur',
  description: 'Layered configuration for services',
  cleanUrls: false,
  markdown: {
    codeTransformers: [transformerTwoslash()],
  },
  themeConfig: {
    nav: [{ text: 'Guide', link: '/guide' }, { text: 'Reference', link: '/reference' }],
    sidebar: [
      { text: 'Guide', items: [{ text: 'Getting started', link: '/guide' }] },
      { text: 'Reference', items: [{ text: 'Options', link: '/reference' }] },
    ],
  },
}
