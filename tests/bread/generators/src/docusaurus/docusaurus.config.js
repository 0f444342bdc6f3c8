// Docusaurus site of the bread generator corpus: the classic preset, code
// highlighted by Prism (the default), and a Markdown twin of each page from
// docusaurus-plugin-llms.
module.exports = {
  title: 'Larkspur',
  tagline: 'Layered configuration for services',
  url: 'https://larkspur.example',
  baseUrl: '/',
  onBrokenLinks: 'warn',
  plugins: [['docusaurus-plugin-llms', { generateMarkdownFiles: true }]],
  presets: [
    [
      'classic',
      {
        docs: { routeBasePath: '/', sidebarPath: require.resolve('./sidebars.js') },
        blog: false,
        theme: {},
      },
    ],
  ],
  themeConfig: {
    navbar: { title: 'Larkspur', items: [{ type: 'doc', docId: 'guide', label: 'Guide' }] },
    prism: { additionalLanguages: ['toml', 'bash', 'python'] },
  },
};
