import { defineConfig } from 'vitepress'
import footnote from 'markdown-it-footnote'
import taskLists from 'markdown-it-task-lists'

// https://vitepress.dev/reference/site-config
export default defineConfig({
  lang: 'en-US',
  title: 'Quillpad Docs',
  description: 'Guides and reference for Quillpad, the collaborative knowledge base for teams.',
  cleanUrls: true,
  lastUpdated: true,
  srcExclude: ['parts/**', 'README.md'],

  head: [
    ['link', { rel: 'icon', type: 'image/png', href: '/images/favicon.png' }],
    ['meta', { name: 'theme-color', content: '#5b4bdb' }],
  ],

  markdown: {
    config: (md) => {
      md.use(footnote)
      md.use(taskLists)
    },
  },

  themeConfig: {
    logo: '/images/logo.png',
    siteTitle: 'Quillpad',

    nav: [
      { text: 'Guide', link: '/guide/getting-started', activeMatch: '/guide/' },
      { text: 'Collaboration', link: '/collaboration/sharing', activeMatch: '/collaboration/' },
      { text: 'Admin', link: '/admin/members-and-roles', activeMatch: '/admin/' },
      {
        text: 'Reference',
        items: [
          { text: 'Keyboard shortcuts', link: '/reference/keyboard-shortcuts' },
          { text: 'REST API', link: '/reference/api' },
        ],
      },
      { text: 'Changelog', link: '/changelog' },
      { text: 'quillpad.io', link: 'https://quillpad.io' },
    ],

    sidebar: {
      '/': [
        {
          text: 'Guide',
          collapsed: false,
          items: [
            { text: 'Getting started', link: '/guide/getting-started' },
            { text: 'Workspaces', link: '/guide/workspaces' },
            { text: 'Notes, folders and tags', link: '/guide/notes-and-folders' },
            { text: 'Links and backlinks', link: '/guide/backlinks' },
            { text: 'Templates', link: '/guide/templates' },
            { text: 'Search', link: '/guide/search' },
            { text: 'Offline mode and sync', link: '/guide/offline-sync' },
            { text: 'Import', link: '/guide/import' },
            { text: 'Export and backups', link: '/guide/export' },
          ],
        },
        {
          text: 'Collaboration',
          collapsed: false,
          items: [
            { text: 'Real-time editing', link: '/collaboration/real-time-editing' },
            { text: 'Comments and mentions', link: '/collaboration/comments' },
            { text: 'Sharing and permissions', link: '/collaboration/sharing' },
            { text: 'Public pages', link: '/collaboration/public-pages' },
            { text: 'Version history', link: '/collaboration/version-history' },
          ],
        },
        {
          text: 'Administration',
          collapsed: true,
          items: [
            { text: 'Members and roles', link: '/admin/members-and-roles' },
            { text: 'Single sign-on (SSO)', link: '/admin/sso' },
            { text: 'Security', link: '/admin/security' },
            { text: 'Audit log', link: '/admin/audit-log' },
            { text: 'Plans and billing', link: '/admin/billing' },
          ],
        },
        {
          text: 'Integrations',
          collapsed: true,
          items: [
            { text: 'Slack', link: '/integrations/slack' },
            { text: 'Google Drive', link: '/integrations/google-drive' },
            { text: 'Zapier', link: '/integrations/zapier' },
            { text: 'Plugins', link: '/integrations/plugins' },
          ],
        },
        {
          text: 'Reference',
          collapsed: true,
          items: [
            { text: 'Keyboard shortcuts', link: '/reference/keyboard-shortcuts' },
            { text: 'REST API', link: '/reference/api' },
          ],
        },
        {
          text: 'Troubleshooting',
          collapsed: true,
          items: [
            { text: 'Sync problems', link: '/troubleshooting/sync-problems' },
            { text: 'Sign-in problems', link: '/troubleshooting/sign-in-problems' },
            { text: "The desktop app won't open", link: '/troubleshooting/desktop-app' },
          ],
        },
        { text: 'FAQ', link: '/faq' },
        { text: 'Changelog', link: '/changelog' },
      ],
    },

    socialLinks: [
      { icon: 'github', link: 'https://github.com/quillpad/quillpad-docs' },
      { icon: 'x', link: 'https://x.com/quillpadapp' },
    ],

    editLink: {
      pattern: 'https://github.com/quillpad/quillpad-docs/edit/main/docs/:path',
      text: 'Suggest a change to this page',
    },

    search: {
      provider: 'local',
    },

    outline: {
      level: [2, 3],
      label: 'On this page',
    },

    footer: {
      message: 'Released under the CC BY 4.0 licence.',
      copyright: 'Copyright © 2021–present Quillpad Labs, Inc.',
    },
  },
})
