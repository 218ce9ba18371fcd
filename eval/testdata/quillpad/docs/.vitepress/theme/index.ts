import DefaultTheme from 'vitepress/theme'
import type { Theme } from 'vitepress'
import PlanTable from './components/PlanTable.vue'
import './custom.css'

export default {
  extends: DefaultTheme,
  enhanceApp({ app }) {
    app.component('PlanTable', PlanTable)
  },
} satisfies Theme
